import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { systemFontFinder } from "./system-fonts.server";
import { tempDir } from "../../../tests/helpers/temp-dir";

function fontTree(files: string[]): string {
  const root = tempDir("fonts-");
  for (const file of files) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), "font");
  }
  return root;
}

describe("system fonts for the scripts Inter lacks", () => {
  it("finds the first installed family of a script, its regular and bold upright files", async () => {
    const root = fontTree([
      "truetype/noto/NotoSansHebrew-Regular.ttf",
      "truetype/noto/NotoSansHebrew-Bold.ttf",
      "truetype/noto/NotoSansHebrew-Italic.ttf",
      "truetype/dejavu/DejaVuSans.ttf",
      "truetype/dejavu/DejaVuSans-Bold.ttf",
      "truetype/dejavu/DejaVuSansMono.ttf",
      "opentype/noto/NotoSansCJK-Regular.ttc",
      "truetype/noto/NotoSansJP[wght].ttf",
    ]);
    const find = await systemFontFinder([root, path.join(root, "missing")]);
    expect(find("he-IL")).toEqual([
      { file: path.join(root, "truetype/noto/NotoSansHebrew-Regular.ttf"), weight: 400 },
      { file: path.join(root, "truetype/noto/NotoSansHebrew-Bold.ttf"), weight: 700 },
    ]);
    // Arabic falls back to DejaVu Sans, which has it; its Mono cut is another family.
    expect(find("ar-AR")).toEqual([
      { file: path.join(root, "truetype/dejavu/DejaVuSans.ttf"), weight: 400 },
      { file: path.join(root, "truetype/dejavu/DejaVuSans-Bold.ttf"), weight: 700 },
    ]);
    // A variable font counts; a collection (.ttc) cannot be read by satori.
    expect(find("ja-JP")).toEqual([{ file: path.join(root, "truetype/noto/NotoSansJP[wght].ttf"), weight: 400 }]);
    expect(find("ko-KR")).toEqual([]);
    expect(find("emoji")).toEqual([]);
  });

  it("finds nothing, without failing, when no font directory exists", async () => {
    const find = await systemFontFinder(["/nonexistent/fonts"]);
    expect(find("zh-CN")).toEqual([]);
  });
});
