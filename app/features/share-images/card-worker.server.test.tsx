import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CARD_WORKER_IDLE_MS, cardWorkerRunning, drawCardInWorker, plainCardTree } from "./card-worker.server";

afterEach(() => {
  vi.useRealTimers();
});

function Label({ text }: { text: string }) {
  return <div style={{ display: "flex", color: "#fff" }}>{text}</div>;
}

describe("plainCardTree", () => {
  it("turns a JSX tree into plain elements a worker message can carry, calling function components", () => {
    const tree = plainCardTree(
      <div style={{ display: "flex" }}>
        <Label text="Title" />
        {null}
        {42}
      </div>,
    );
    expect(tree).toEqual({
      type: "div",
      props: {
        style: { display: "flex" },
        children: [{ type: "div", props: { style: { display: "flex", color: "#fff" }, children: "Title" } }, null, 42],
      },
    });
    // React elements carry a symbol, which structured cloning refuses.
    expect(() => structuredClone(<div />)).toThrow();
    expect(structuredClone(tree)).toEqual(tree);
  });

  it("refuses what satori could not draw from a message (fragments, objects)", () => {
    expect(() =>
      plainCardTree(
        <>
          <div />
        </>,
      ),
    ).toThrow(/function components/);
  });
});

const require = createRequire(import.meta.url);
const INTER = {
  name: "Inter",
  data: readFileSync(require.resolve("@fontsource/inter/files/inter-latin-400-normal.woff")),
  weight: 400 as const,
  style: "normal" as const,
};

describe("the card worker", () => {
  it("draws, asks for the fonts of a script the given ones lack, and ends once idle; the next card starts it again", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const asked: string[] = [];
    const png = await drawCardInWorker({
      tree: plainCardTree(<div style={{ display: "flex", width: 120, height: 63, fontFamily: "Inter" }}>Hi 日本</div>),
      width: 120,
      height: 63,
      fonts: [INTER],
      additionalFonts: async (languageCode) => {
        asked.push(languageCode);
        return [];
      },
    });
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(asked).toEqual([expect.stringContaining("ja-JP")]);
    expect(cardWorkerRunning()).toBe(true);
    vi.advanceTimersByTime(CARD_WORKER_IDLE_MS);
    expect(cardWorkerRunning()).toBe(false);

    // A failed drawing comes back as a rejection (satori refuses text without any font), and the
    // worker is started again for it.
    const failed = drawCardInWorker({
      tree: plainCardTree(<div>text</div>),
      width: 10,
      height: 10,
      fonts: [],
      additionalFonts: async () => [],
    });
    await expect(failed).rejects.toThrow(/share card drawing failed/);
    expect(cardWorkerRunning()).toBe(true);
    vi.advanceTimersByTime(CARD_WORKER_IDLE_MS);
    expect(cardWorkerRunning()).toBe(false);
  });
});
