// The share uploader's worker (share/upload.mjs starts one per range and ends it after): seals
// its range of the ciphertext from the file and sends it (share/pieces.mjs), reporting progress,
// when its last piece starts (so the page starts the next range's worker), the offset reached,
// or why it stopped: a refusal, a lost connection (worth retrying), or a file that cannot be
// read. It seals its first piece as soon as it is told its range, and sends once told to go
// and where (the first worker is started while the page creates the upload).
import { Interrupted, Pieces, Refused } from "./share/pieces.mjs";

let go;
const told = new Promise((resolve) => {
  go = resolve;
});

self.addEventListener("message", async ({ data }) => {
  if (data.go) {
    go(data.location);
    return;
  }
  const pieces = new Pieces(data);
  const first = pieces.piece(data.from);
  // A worker ended before it was told to go leaves its piece to the garbage collector.
  first.catch(() => {});
  try {
    const location = await told;
    const reached = await pieces.send({
      ...data,
      location,
      first,
      onProgress: (sent) => self.postMessage({ progress: sent }),
      onLast: () => self.postMessage({ last: true }),
    });
    self.postMessage({ reached });
  } catch (error) {
    if (error instanceof Refused) self.postMessage({ refused: error.status, problem: error.problem });
    else if (error instanceof Interrupted) self.postMessage({ interrupted: error.message });
    // The file could not be read (moved, changed) or sealed: retrying will not help.
    else self.postMessage({ failed: error.message });
  }
});
