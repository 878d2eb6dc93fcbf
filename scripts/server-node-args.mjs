// The node flags the site is started with: those of package.json's `serve` script (`npm start` and the
// Dockerfile use the same), so benchmarks measure the server as people run it.
import fs from "node:fs";

export function serverNodeArgs() {
  const { scripts } = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const match = /\bnode((?:\s+--\S+)*)\s+server\.js\b/.exec(scripts.serve ?? "");
  if (!match) throw new Error('package.json\'s "serve" script does not run `node … server.js`');
  return match[1].split(/\s+/).filter(Boolean);
}
