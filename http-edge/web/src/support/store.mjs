// Where the support desk keeps its work in the browser (nothing new goes to the server): the
// raw log, the API's answer, the corrections, the reply's wording. It is kept for the session
// that made it: the entry's name comes from a digest of the session's anti-CSRF token, so a
// reload finds it, and another session (a log-out, someone else logging in on this browser)
// finds nothing and drops it; "clear" forgets it at once.

const PREFIX = "quire-support-desk:";
/// Older than this, a kept desk is dropped unread.
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

async function name() {
  const token = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return PREFIX + Array.from(digest.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

function others(keep) {
  const found = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX) && key !== keep) found.push(key);
  }
  return found;
}

/// The desk this session kept, or null; other sessions' desks are dropped.
export async function load() {
  const key = await name();
  for (const other of others(key)) localStorage.removeItem(other);
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept?.v === 1 && Date.now() - kept.savedAt < MAX_AGE_MS) return kept;
  } catch {
    // Unreadable: dropped below.
  }
  localStorage.removeItem(key);
  return null;
}

/// Keeps `desk`; false if the browser refused (storage full or disabled): the page says so.
export async function save(desk) {
  try {
    localStorage.setItem(await name(), JSON.stringify({ ...desk, v: 1, savedAt: Date.now() }));
    return true;
  } catch {
    return false;
  }
}

/// Forgets every kept desk.
export function clear() {
  for (const key of others(null)) localStorage.removeItem(key);
}
