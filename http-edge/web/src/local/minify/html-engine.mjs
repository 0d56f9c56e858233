// html-minifier-terser, loaded for the browser. Its package's main entry imports clean-css and
// relateurl, which need Node's fs, http, path and url: esbuild cannot bundle them for a page.
// Its own browser bundle (dist/htmlminifier.esm.bundle.js) has them polyfilled; it also holds
// its copies of clean-css and of an older terser, which this tool never calls: minifiers.mjs
// hands it csso and our terser as its minifyCSS and minifyJS, so that inline code is minified
// exactly as a stylesheet or a script is.
import { restoreGlobals } from "./xhr-guard.mjs"; // must stay before the bundle: see xhr-guard.mjs
import { minify } from "html-minifier-terser/dist/htmlminifier.esm.bundle";

restoreGlobals();

export { minify as minifyHtmlWith };
