import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MODULE = fileURLToPath(new URL("./object-shapes.ts", import.meta.url));

/**
 * What the server's start-up did: six responses made and dropped, then a full collection (the idle
 * one after the warm-up), then the seventh and later ones. Runs in a fresh process (V8's layout
 * decision is made once per process) and reports whether a later response kept fast properties.
 */
function laterResponseIsFast(settleFirst: boolean): boolean {
  const script = `
    import v8 from "node:v8";
    import vm from "node:vm";
    import { IncomingMessage, ServerResponse } from "node:http";
    import { Socket } from "node:net";
    v8.setFlagsFromString("--allow-natives-syntax");
    v8.setFlagsFromString("--expose-gc");
    const hasFastProperties = new Function("o", "return %HasFastProperties(o)");
    const gc = vm.runInNewContext("gc");
    if (${settleFirst}) (await import(${JSON.stringify(MODULE)})).settleHttpObjectShapes();
    const respond = () => new ServerResponse(new IncomingMessage(new Socket()));
    for (let i = 0; i < 6; i++) respond();
    gc();
    const later = [];
    for (let i = 0; i < 8; i++) later.push(respond());
    process.stdout.write(String(hasFastProperties(later.at(-1))));
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  return out.trim() === "true";
}

describe("settleHttpObjectShapes", () => {
  it("keeps responses made after an early full collection in fast mode", () => {
    // Without it, V8 (Node 20–22) sizes ServerResponse for no in-object properties and every later
    // response turns into a dictionary while node's constructor runs: the case this guards against.
    expect(laterResponseIsFast(false)).toBe(false);
    expect(laterResponseIsFast(true)).toBe(true);
  });
});
