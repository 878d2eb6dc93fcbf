import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openRanged, parseByteRange, type RangedRead } from "./byte-range.server";

describe("parseByteRange", () => {
  it("reads single byte ranges, suffixes and open ends", () => {
    expect(parseByteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange("bytes=990-5000", 1000)).toEqual({ start: 990, end: 999 });
  });

  it("answers unsatisfiable past the end, and ignores what it does not serve", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseByteRange(null, 1000)).toBeUndefined();
    expect(parseByteRange("bytes=0-1,5-6", 1000)).toBeUndefined();
    expect(parseByteRange("items=0-1", 1000)).toBeUndefined();
    expect(parseByteRange("bytes=5-1", 1000)).toBeUndefined();
    expect(parseByteRange("bytes=-", 1000)).toBeUndefined();
  });
});

describe("openRanged", () => {
  const BYTES = Buffer.from("0123456789abcdefghij");
  function fakeStorage(exists = true) {
    const calls: string[] = [];
    return {
      calls,
      openRead: async (_key: string, range?: { start: number; end: number }) => {
        calls.push(range ? `openRead ${range.start}-${range.end}` : "openRead");
        if (!exists) return null;
        const body = range ? BYTES.subarray(range.start, range.end + 1) : BYTES;
        return { stream: Readable.from([body]), size: BYTES.length, contentType: "image/png" };
      },
      stat: async () => {
        calls.push("stat");
        return exists ? { size: BYTES.length, contentType: "image/png" } : null;
      },
    };
  }
  async function text(read: RangedRead | null) {
    if (!read || read.status === 416) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of read.stream) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString();
  }

  it("reads the store once: a whole file without a Range; a stat then the slice with one", async () => {
    const whole = fakeStorage();
    const all = await openRanged(whole, "k/a.png", null);
    expect([all?.status, await text(all)]).toEqual([200, BYTES.toString()]);
    expect(whole.calls).toEqual(["openRead"]);

    const ranged = fakeStorage();
    const part = await openRanged(ranged, "k/a.png", "bytes=2-5");
    expect(part).toMatchObject({ status: 206, size: BYTES.length, range: { start: 2, end: 5 } });
    expect(await text(part)).toBe("2345");
    expect(ranged.calls).toEqual(["stat", "openRead 2-5"]);
  });

  it("416 past the end after a stat alone; an unusable range is the whole file; a missing object is null", async () => {
    const past = fakeStorage();
    expect(await openRanged(past, "k/a.png", `bytes=${BYTES.length}-`)).toEqual({ status: 416, size: BYTES.length });
    expect(past.calls).toEqual(["stat"]);
    const backwards = fakeStorage();
    const whole = await openRanged(backwards, "k/a.png", "bytes=5-2");
    expect([whole?.status, await text(whole)]).toEqual([200, BYTES.toString()]);
    expect(backwards.calls).toEqual(["stat", "openRead"]);
    expect(await openRanged(fakeStorage(false), "k/a.png", null)).toBeNull();
    const gone = fakeStorage(false);
    expect(await openRanged(gone, "k/a.png", "bytes=0-1")).toBeNull();
    expect(gone.calls).toEqual(["stat"]);
  });
});
