import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Root as MdastRoot } from "mdast";
import { AppError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";

/**
 * Markdown parsing (CommonMark + GFM, what remark-parse with remark-gfm does) off the event loop, with a
 * time limit. The parser's worst cases are far from linear: tens of thousands of unclosed "[", or deeply
 * nested lists and quotes, took seconds to minutes of the one event loop. Parsing in a worker keeps
 * every other request answered; a parse over the limit ends the worker and refuses the text. The limit
 * is generous (a 100,000-character post parses in about a second): it bounds the CPU a text may
 * take, not the wait of other requests, which the worker already spares.
 *
 * The worker runs plain JavaScript from node_modules (the same packages remark uses), so it works the
 * same from the production bundle, the development server and the tests.
 */
export const PARSE_TIME_LIMIT_MS = 20_000;
/** Blocks and inline runs nested deeper than this are refused: the tree walkers after the parse recurse. */
export const MAX_MARKDOWN_DEPTH = 48;
/**
 * Trees of more nodes than this are refused. What follows the parse (GFM and line-break transforms,
 * HTML, sanitizing, text) runs on the event loop at a few microseconds per node, so the node count
 * bounds how long a render holds it: about 200 ms at this limit. Prose at the longest allowed length
 * (100,000 characters) makes about 17,000 nodes; 30,000 backticks between letters make 30,000 inline
 * code spans and texts, which held the loop for seconds.
 */
export const MAX_MARKDOWN_NODES = 25_000;
/** A worker left idle this long ends: most processes render rarely (saves and previews). */
const IDLE_MS = 30_000;

export const MARKDOWN_TOO_COMPLEX =
  "This text is too complex to render (very deep nesting, thousands of unclosed brackets or tens of thousands of formatting marks). Simplify it and try again.";

/** Content the renderer refuses: 422, with a sentence the author can act on. */
export class MarkdownTooComplexError extends AppError {
  constructor() {
    super(MARKDOWN_TOO_COMPLEX, 422, { content: [MARKDOWN_TOO_COMPLEX] });
  }
}

// The tree's shape is measured in the worker (without recursion: a deep tree is what it guards
// against), so a refused tree never crosses to the event loop, whose copy of it costs time too.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const loaded = Promise.all(workerData.modules.map((url) => import(url)));
function withinLimits(tree) {
  let nodes = 0;
  const stack = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop();
    nodes++;
    if (depth > workerData.maxDepth || nodes > workerData.maxNodes) return false;
    for (const child of node.children || []) stack.push([child, depth + 1]);
  }
  return true;
}
parentPort.on("message", async ({ source }) => {
  try {
    const [{ fromMarkdown }, { gfm }, { gfmFromMarkdown }] = await loaded;
    const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    parentPort.postMessage(withinLimits(tree) ? { tree } : { tooComplex: true });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
});
`;

function moduleUrls(): string[] {
  const require = createRequire(import.meta.url);
  return ["mdast-util-from-markdown", "micromark-extension-gfm", "mdast-util-gfm"].map((name) => pathToFileURL(require.resolve(name)).href);
}

interface ParseWorker {
  worker: Worker;
  /** The one text being parsed: texts take turns, so the time limit is each text's own. */
  waiting?: { resolve: (tree: MdastRoot) => void; reject: (error: unknown) => void };
  idle?: NodeJS.Timeout;
}

let current: ParseWorker | undefined;
let turn: Promise<unknown> = Promise.resolve();

function endWorker(parser: ParseWorker, error: unknown) {
  if (current === parser) current = undefined;
  clearTimeout(parser.idle);
  parser.waiting?.reject(error);
  parser.waiting = undefined;
  void parser.worker.terminate();
}

function startWorker(): ParseWorker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { modules: moduleUrls(), maxDepth: MAX_MARKDOWN_DEPTH, maxNodes: MAX_MARKDOWN_NODES },
  });
  const parser: ParseWorker = { worker };
  worker.unref();
  worker.on("message", (message: { tree?: MdastRoot; tooComplex?: boolean; error?: string }) => {
    const waiting = parser.waiting;
    parser.waiting = undefined;
    if (message.tree) waiting?.resolve(message.tree);
    else if (message.tooComplex) waiting?.reject(new MarkdownTooComplexError());
    else waiting?.reject(new Error(`markdown parse failed: ${message.error ?? "unknown"}`));
  });
  worker.on("error", (error) => endWorker(parser, error));
  worker.on("exit", () => endWorker(parser, new Error("markdown parser worker exited")));
  return parser;
}

function parseInWorker(source: string): Promise<MdastRoot> {
  const parser = (current ??= startWorker());
  clearTimeout(parser.idle);
  const started = Date.now();
  return new Promise<MdastRoot>((resolve, reject) => {
    const timer = setTimeout(() => {
      logger.warn({ chars: source.length, ms: Date.now() - started }, "markdown parse over its time limit; worker ended");
      endWorker(parser, new MarkdownTooComplexError());
    }, PARSE_TIME_LIMIT_MS);
    parser.waiting = {
      resolve: (tree) => {
        clearTimeout(timer);
        resolve(tree);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    parser.worker.postMessage({ source });
  }).finally(() => {
    if (current !== parser) return;
    parser.idle = setTimeout(() => endWorker(parser, new Error("idle")), IDLE_MS);
    parser.idle.unref();
  });
}

/**
 * Ends the worker once the texts already queued are parsed, instead of after IDLE_MS: for a batch
 * that no edit follows (start-up's rendering of stored posts), whose worker (its own V8 heap, ~15 MB
 * resident) would otherwise outlive it by half a minute. The next parse starts a new one.
 */
export function releaseParser(): Promise<void> {
  return turn.then(() => {
    if (current && !current.waiting) endWorker(current, new Error("released"));
  });
}

/**
 * The Markdown syntax tree of `source`, parsed in the worker. Throws MarkdownTooComplexError when the
 * parse takes longer than PARSE_TIME_LIMIT_MS, or the tree nests deeper than MAX_MARKDOWN_DEPTH or has
 * more than MAX_MARKDOWN_NODES nodes.
 */
export function parseMarkdown(source: string): Promise<MdastRoot> {
  const parsed = turn.then(() => parseInWorker(source));
  turn = parsed.catch(() => undefined);
  return parsed;
}
