import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { isValidElement, type ReactNode } from "react";
import { releaseNativeMemorySoon } from "~/server/gc.server";

/**
 * Share cards are drawn in a worker thread that ends soon after its last card: satori (its 1.6 MB
 * bundle, yoga's WebAssembly) and resvg's pixmaps then leave with the worker's own V8 heap instead of
 * staying in the server's for good (~15-20 MiB after the e2e-like workload,
 * docs/decisions/0088-share-cards-in-a-worker.md). A drawing is rare (each card once, then stored),
 * so starting the worker again (~0.2 s) after a quiet spell costs little.
 */
export const CARD_WORKER_IDLE_MS = 2_000;

/** A card's layout as satori reads it: plain elements (type and props), which a worker message can carry. */
export interface CardElement {
  type: string;
  props: Record<string, unknown> & { children?: CardNode };
}
export type CardNode = CardElement | string | number | boolean | null | undefined | CardNode[];

export interface CardFont {
  name: string;
  data: Buffer;
  weight: 400 | 700;
  style: "normal";
}

export interface CardDrawing {
  tree: CardNode;
  width: number;
  height: number;
  fonts: CardFont[];
  /** Fonts for a script the given ones lack (satori's language code), asked for while laying out. */
  additionalFonts: (languageCode: string) => Promise<CardFont[]>;
}

/**
 * The elements of a JSX tree as plain objects. React elements carry a symbol ($$typeof), which a
 * worker message cannot. Function components are called here, as satori would.
 */
export function plainCardTree(node: ReactNode): CardNode {
  if (Array.isArray(node)) return node.map((child: ReactNode) => plainCardTree(child));
  if (!isValidElement(node)) {
    if (node === null || node === undefined || typeof node === "string" || typeof node === "number" || typeof node === "boolean")
      return node;
    throw new Error("share card: only elements, text and numbers can be drawn");
  }
  const allProps = node.props as Record<string, unknown> & { children?: ReactNode };
  if (typeof node.type === "function") return plainCardTree((node.type as (props: unknown) => ReactNode)(allProps));
  if (typeof node.type !== "string") throw new Error("share card: only plain function components can be drawn");
  const { children, ...props } = allProps;
  return { type: node.type, props: children === undefined ? props : { ...props, children: plainCardTree(children) } };
}

// Plain JavaScript from node_modules, so the worker is the same from the production bundle, the
// development server and the tests.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const satori = require(workerData.satori).default;
const { Resvg } = require(workerData.resvg);
const fontRequests = new Map();
let nextFontRequest = 0;
function askForFonts(drawing, languageCode) {
  return new Promise((resolve) => {
    const id = nextFontRequest++;
    fontRequests.set(id, resolve);
    parentPort.postMessage({ kind: "fonts", id, drawing, languageCode });
  });
}
parentPort.on("message", async (message) => {
  if (message.kind === "fonts") {
    fontRequests.get(message.id)?.(message.fonts);
    fontRequests.delete(message.id);
    return;
  }
  try {
    const svg = await satori(message.tree, {
      width: message.width,
      height: message.height,
      fonts: message.fonts,
      loadAdditionalAsset: (languageCode) => askForFonts(message.id, languageCode),
    });
    const png = new Resvg(svg, { fitTo: { mode: "width", value: message.width }, font: { loadSystemFonts: false } }).render().asPng();
    parentPort.postMessage({ kind: "png", id: message.id, png });
  } catch (error) {
    parentPort.postMessage({ kind: "error", id: message.id, error: String(error && error.message ? error.message : error) });
  }
});
`;

type WorkerMessage =
  | { kind: "png"; id: number; png: Uint8Array }
  | { kind: "error"; id: number; error: string }
  /** A font request (its own id) of drawing `drawing`. */
  | { kind: "fonts"; id: number; drawing: number; languageCode: string };

interface Pending {
  resolve: (png: Buffer) => void;
  reject: (error: unknown) => void;
  additionalFonts: CardDrawing["additionalFonts"];
}

interface CardWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

let current: CardWorker | undefined;
let nextId = 0;

function endWorker(drawer: CardWorker, error: unknown): void {
  if (current === drawer) current = undefined;
  clearTimeout(drawer.idle);
  for (const pending of drawer.pending.values()) pending.reject(error);
  drawer.pending.clear();
  void drawer.worker.terminate();
}

function startWorker(): CardWorker {
  const require = createRequire(import.meta.url);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { satori: require.resolve("satori"), resvg: require.resolve("@resvg/resvg-js") },
  });
  const drawer: CardWorker = { worker, pending: new Map() };
  worker.unref();
  worker.on("message", (message: WorkerMessage) => {
    if (message.kind === "fonts") {
      const pending = drawer.pending.get(message.drawing);
      const reply = (fonts: CardFont[]) => worker.postMessage({ kind: "fonts", id: message.id, fonts });
      void (pending ? pending.additionalFonts(message.languageCode) : Promise.resolve([])).then(reply, () => reply([]));
      return;
    }
    const pending = drawer.pending.get(message.id);
    drawer.pending.delete(message.id);
    if (message.kind === "png") pending?.resolve(Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength));
    else pending?.reject(new Error(`share card drawing failed: ${message.error}`));
    if (drawer.pending.size === 0 && current === drawer) {
      drawer.idle = setTimeout(() => endWorker(drawer, new Error("idle")), CARD_WORKER_IDLE_MS);
      drawer.idle.unref();
    }
  });
  worker.on("error", (error) => endWorker(drawer, error));
  // Its heap and resvg's buffers are freed as the thread ends: hand the pages back.
  worker.on("exit", () => {
    endWorker(drawer, new Error("share card worker exited"));
    releaseNativeMemorySoon();
  });
  return drawer;
}

/** Whether the card worker is running (it ends CARD_WORKER_IDLE_MS after its last drawing). */
export function cardWorkerRunning(): boolean {
  return current !== undefined;
}

/** Lays out `tree` with satori and rasterizes it with resvg, in the card worker: the PNG's bytes. */
export function drawCardInWorker({ tree, width, height, fonts, additionalFonts }: CardDrawing): Promise<Buffer> {
  const drawer = (current ??= startWorker());
  clearTimeout(drawer.idle);
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    drawer.pending.set(id, { resolve, reject, additionalFonts });
    drawer.worker.postMessage({ kind: "draw", id, tree, width, height, fonts });
  });
}
