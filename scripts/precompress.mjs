// After `react-router build`: writes .br and .gz beside every compressible file of build/client, so
// the server sends static assets compressed at the best level without compressing per request.
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const ROOT = "build/client";
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".html", ".txt", ".xml", ".webmanifest", ".map"]);
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function* files(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for await (const file of files(ROOT)) {
  if (!COMPRESSIBLE.has(path.extname(file))) continue;
  const body = await fs.readFile(file);
  if (body.length < MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip(body, { level: 9 }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  count++;
  before += body.length;
  after += br.length;
}
console.log(`precompressed ${count} files in ${ROOT}: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB (br)`);
