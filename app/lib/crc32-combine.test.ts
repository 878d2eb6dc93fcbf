import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32CombineWith, crc32Shift } from "./crc32-combine";

describe("crc32Combine", () => {
  it("gives the CRC-32 of the joined bytes, for lengths from 0 to well past 64 KiB", () => {
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [7, 24],
      [1000, 3],
      [70_000, 131_073],
    ] as const) {
      const first = randomBytes(a);
      const second = randomBytes(b);
      expect(crc32Combine(crc32(first), crc32(second), b), `${a}+${b}`).toBe(crc32(Buffer.concat([first, second])));
      expect(crc32CombineWith(crc32Shift(b), crc32(first), crc32(second)), `${a}+${b} (shift)`).toBe(crc32(Buffer.concat([first, second])));
    }
  });
});
