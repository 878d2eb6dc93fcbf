import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { rasterizeSvg } from "./rasterize.server";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><rect width="60" height="30" fill="#c00"/></svg>';

describe("rasterizeSvg (resvg in a child process)", () => {
  it("draws an SVG as a PNG scaled to the width asked for, concurrently", async () => {
    const [small, large] = await Promise.all([rasterizeSvg(SVG, 120), rasterizeSvg(SVG, 300)]);
    const [a, b] = await Promise.all([sharp(small).metadata(), sharp(large).metadata()]);
    expect([a.format, a.width, a.height]).toEqual(["png", 120, 60]);
    expect([b.format, b.width, b.height]).toEqual(["png", 300, 150]);
    const { data } = await sharp(small).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([204, 0, 0]);
  });

  it("rejects an SVG resvg cannot read, and keeps drawing the next ones", async () => {
    await expect(rasterizeSvg("not an svg", 100)).rejects.toThrow(/share card rasterization failed/);
    const png = await rasterizeSvg(SVG, 60);
    expect((await sharp(png).metadata()).width).toBe(60);
  });
});
