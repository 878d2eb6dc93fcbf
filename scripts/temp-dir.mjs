// Temporary directories of a script (benchmarks, checks): removed when the process exits, whichever way
// it does (the script's end, a thrown error, process.exit() from a server's exit handler, Ctrl-C).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made = [];

process.once("exit", () => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
// A signal's default ends the process without the exit event: exit as it would, with the event.
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
]) {
  process.once(signal, () => process.exit(128 + number));
}

/** A new empty directory under the system's temporary directory, removed when this process exits. */
export function scriptTempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
