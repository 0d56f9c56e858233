// A local tool's worker, for work that would freeze the page (encoding a photo, minifying a
// large script): started with the page, so that its script is loaded before the network may
// go away, and given one job at a time. The page side is `WorkerJobs`; the worker's script
// calls `serveJobs`. An error crosses as its name, message and own fields (a MinifyError's
// line and column), since an Error's class does not survive postMessage.
import { say } from "./common.mjs";

export class WorkerJobs {
  constructor(url) {
    this.worker = new Worker(url);
    this.pending = new Map();
    this.next = 1;
    this.failed = null;
    /// Settles when the worker's script has loaded, or has failed to.
    this.ready = new Promise((resolve) => (this.loaded = resolve));
    this.worker.addEventListener("message", ({ data }) => {
      if (data.ready) return this.loaded();
      const job = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (data.error) job?.reject(Object.assign(new Error(data.error.message), data.error));
      else job?.resolve(data.result);
    });
    // A worker that did not load (the network went before it came) or that crashed takes no
    // more jobs: each is refused at once rather than left waiting.
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.failed = say("this page's worker could not run: reload the page", "le worker de cette page n'a pas pu tourner : rechargez la page");
      for (const job of this.pending.values()) job.reject(new Error(this.failed));
      this.pending.clear();
      this.loaded();
    });
  }

  /// Sends `message` (with `transfer`, moved rather than copied) and gives the worker's result.
  run(message, transfer = []) {
    if (this.failed) return Promise.reject(new Error(this.failed));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }
}

/// In the worker: answers each job with `handle(message)` → { result, transfer? }, then says
/// it is ready.
export function serveJobs(handle) {
  self.addEventListener("message", async ({ data }) => {
    try {
      const { result, transfer = [] } = await handle(data);
      self.postMessage({ id: data.id, result }, transfer);
    } catch (error) {
      const fields = error && typeof error === "object" ? { ...error } : {};
      self.postMessage({ id: data.id, error: { ...fields, name: error?.name ?? "Error", message: String(error?.message ?? error) } });
    }
  });
  self.postMessage({ ready: true });
}
