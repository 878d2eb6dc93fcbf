import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../tests/helpers/temp-dir";

const MODULE = fileURLToPath(new URL("./tick-shapes.mjs", import.meta.url));
const ROUNDS = 8;

/**
 * What the server's start-up and idle time do: a few nextTick entries, all of them gone, then a full
 * collection, several times over. Runs in a fresh process with V8's map log and counts the shapes
 * V8 made for an entry's first symbol key (`async_id_symbol`): one new shape per round means the
 * transitions were collected and nextTick's inline cache sees a new shape each time.
 */
function newTickShapes(keepFirst: boolean): number {
  const log = path.join(tempDir("tick-shapes-"), "v8.log");
  const script = `
    import v8 from "node:v8";
    import vm from "node:vm";
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    if (${keepFirst}) (await import(${JSON.stringify(MODULE)})).keepTickObjectShapes();
    for (let i = 0; i < ${ROUNDS}; i++) {
      await new Promise((resolve) => process.nextTick(resolve));
      await new Promise((resolve) => setTimeout(resolve, 1));
      gc();
    }
  `;
  execFileSync(process.execPath, ["--log-maps", `--logfile=${log}`, "--no-logfile-per-isolate", "--input-type=module", "-e", script]);
  return fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("map,Transition,") && line.includes('symbol("async_id_symbol"')).length;
}

describe("keepTickObjectShapes", () => {
  it("keeps nextTick entries on the same shapes across full collections", () => {
    // Without it, every round's entries take a new shape (Node 20–22): the case this guards against.
    // If a V8 upgrade stops collecting these transitions, the first assertion says so.
    expect(newTickShapes(false)).toBeGreaterThanOrEqual(ROUNDS);
    expect(newTickShapes(true)).toBeLessThan(3);
  });
});
