// The minify page's worker: terser, csso and html-minifier-terser (src/local/minify/
// minifiers.mjs), run off the page's thread, so that minifying a large script does not freeze
// the page. Served with the local pages' CSP: it connects nowhere. A job: { kind, code,
// options } → { code, module, warnings }, or the MinifyError with its line and column.
import { minify } from "./local/minify/minifiers.mjs";
import { serveJobs } from "./local/worker-jobs.mjs";

serveJobs(async ({ kind, code, options }) => ({ result: await minify(kind, code, options) }));
