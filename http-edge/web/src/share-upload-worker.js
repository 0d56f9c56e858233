// The share uploader's worker (share/upload.mjs starts one per range and ends it after): seals
// its range of the ciphertext from the file and sends it (share/pieces.mjs), reporting progress,
// the offset reached, or why it stopped: a refusal, a lost connection (worth retrying), or a
// file that cannot be read.
import { Interrupted, Pieces, Refused } from "./share/pieces.mjs";

self.addEventListener("message", async ({ data }) => {
  const pieces = new Pieces(data);
  try {
    const reached = await pieces.send({ ...data, onProgress: (sent) => self.postMessage({ progress: sent }) });
    self.postMessage({ reached });
  } catch (error) {
    if (error instanceof Refused) self.postMessage({ refused: error.status, problem: error.problem });
    else if (error instanceof Interrupted) self.postMessage({ interrupted: error.message });
    // The file could not be read (moved, changed) or sealed: retrying will not help.
    else self.postMessage({ failed: error.message });
  }
});
