import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

// Registered when a test file imports this module (statically), so it belongs to that file: every
// directory the file made is removed after its last test, whether its tests passed, failed or threw.
// Each file loads its own copy (vitest isolates files), hence its own list. A file whose tests are
// all skipped runs no hooks: make directories in beforeAll or in a test, not in a describe's body
// (tests/setup/global-postgres.ts removes, and names, whatever is left at the end of the run).
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temporary directory, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
