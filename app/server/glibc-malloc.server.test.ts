import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { runsOnGlibc, trimMalloc, tuneMalloc } from "./glibc-malloc.server";

describe.runIf(runsOnGlibc())("glibc malloc through koffi (Linux with glibc, like CI and the Docker image)", () => {
  it("tunes malloc unless the operator set glibc's variables", () => {
    expect(tuneMalloc({ MALLOC_ARENA_MAX: "4" })).toBe(false);
    expect(tuneMalloc({ MALLOC_MMAP_THRESHOLD_: "65536" })).toBe(false);
    expect(tuneMalloc({})).toBe(true);
  });

  it("hands freed pages back to the system", () => {
    const koffi: typeof import("koffi") = createRequire(import.meta.url)("koffi");
    const libc = koffi.load("libc.so.6");
    const malloc = libc.func("void *malloc(size_t size)");
    const free = libc.func("void free(void *ptr)");
    // 16 MB in blocks under the mmap threshold, freed: whole free pages inside malloc's heap.
    const blocks: unknown[] = Array.from({ length: 4096 }, () => malloc(4000));
    for (const block of blocks) free(block);
    expect(trimMalloc()).toBe(true);
  });
});
