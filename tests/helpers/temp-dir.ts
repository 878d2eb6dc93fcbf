import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

// Registered when a test file imports this module (statically), so it belongs to that file: every
// directory the file made is removed after its last test, whether the tests passed, failed or threw.
// Each file loads its own copy (vitest isolates files), hence its own list.
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temporary directory, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
