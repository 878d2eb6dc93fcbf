import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { z } from "zod";

/**
 * resvg rasterizes share cards in a child process that exits once it has been idle this long: the
 * pixmaps and SVG trees it mallocs (~3 MB a card) stayed in the server's malloc heap for good (+30 MB
 * after drawing every card of the demo site), and a process that exits gives all of it back
 * (docs/decisions/14f-server-memory.md). A burst of cards is drawn by one child.
 */
const IDLE_MS = 2_000;

// Plain CommonJS run with `node -e`, so it needs no file of its own in the build or the image.
const CHILD_SOURCE = `
const { Resvg } = require(process.env.RESVG_MODULE);
process.on("message", ({ id, svg, width }) => {
  try {
    const png = new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } }).render().asPng();
    process.send({ id, png });
  } catch (error) {
    process.send({ id, error: String((error && error.message) || error) });
  }
});
`;

const replySchema = z.union([z.object({ id: z.number(), png: z.instanceof(Uint8Array) }), z.object({ id: z.number(), error: z.string() })]);

interface Pending {
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

interface Rasterizer {
  process: ChildProcess;
  pending: Map<number, Pending>;
  idleTimer?: NodeJS.Timeout;
}

let current: Rasterizer | undefined;
let nextId = 0;

function startRasterizer(): Rasterizer {
  const child = spawn(process.execPath, ["-e", CHILD_SOURCE], {
    env: { ...process.env, RESVG_MODULE: createRequire(import.meta.url).resolve("@resvg/resvg-js") },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "advanced",
  });
  const rasterizer: Rasterizer = { process: child, pending: new Map() };
  // Neither the child nor its channel keeps the server's event loop alive (shutdown does not wait for it).
  child.unref();
  child.channel?.unref();
  child.on("message", (message: unknown) => {
    const reply = replySchema.safeParse(message);
    const waiting = reply.success ? rasterizer.pending.get(reply.data.id) : undefined;
    if (!reply.success || !waiting) return;
    rasterizer.pending.delete(reply.data.id);
    if ("png" in reply.data) waiting.resolve(Buffer.from(reply.data.png.buffer, reply.data.png.byteOffset, reply.data.png.byteLength));
    else waiting.reject(new Error(`share card rasterization failed: ${reply.data.error}`));
    if (rasterizer.pending.size === 0) exitWhenIdle(rasterizer);
  });
  const gone = (error: Error) => {
    if (current === rasterizer) current = undefined;
    for (const { reject } of rasterizer.pending.values()) reject(error);
    rasterizer.pending.clear();
  };
  child.once("error", gone);
  child.once("exit", (code, signal) => gone(new Error(`share card rasterizer exited (${signal ?? code})`)));
  return rasterizer;
}

function exitWhenIdle(rasterizer: Rasterizer): void {
  clearTimeout(rasterizer.idleTimer);
  rasterizer.idleTimer = setTimeout(() => {
    if (rasterizer.pending.size > 0) return;
    if (current === rasterizer) current = undefined;
    rasterizer.process.kill();
  }, IDLE_MS);
  rasterizer.idleTimer.unref();
}

/** The PNG of an SVG scaled to `width`, drawn by resvg in the short-lived child process. */
export function rasterizeSvg(svg: string, width: number): Promise<Buffer> {
  const rasterizer = (current ??= startRasterizer());
  clearTimeout(rasterizer.idleTimer);
  const id = nextId++;
  const result = new Promise<Buffer>((resolve, reject) => rasterizer.pending.set(id, { resolve, reject }));
  rasterizer.process.send({ id, svg, width });
  return result;
}
