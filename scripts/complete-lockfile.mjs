// The package registry reachable from our machines answers 404 for platform packages of other
// systems (e.g. @rollup/rollup-darwin-arm64), so `npm install` leaves them out of package-lock.json
// and `npm ci` then refuses the lock file as out of sync. This adds the missing optional entries,
// with the os/cpu read from the package name, so `npm ci` skips them on platforms that do not match.
// Run after `npm install`: node scripts/complete-lockfile.mjs
import fs from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "netbsd", "sunos", "aix", "openharmony", "wasi", "wasm32"];
const CPU = ["arm64", "arm", "x64", "ia32", "riscv64", "ppc64", "s390x", "loong64", "mips64el", "wasm32", "loongarch64"];

function guess(name) {
  const base = name.split("/").pop();
  const parts = base.split("-");
  const os = parts.find((p) => OS.includes(p));
  let cpu = parts.find((p) => CPU.includes(p));
  if (base.includes("arm-") || base.endsWith("-arm") || base.includes("-arm-")) cpu ??= "arm";
  const result = {};
  if (os === "wasm32" || os === "wasi" || base.includes("wasm32")) result.cpu = ["wasm32"];
  else {
    if (os) result.os = [os === "openharmony" ? "openharmony" : os];
    if (cpu) result.cpu = [cpu];
  }
  return result;
}

function resolveLocation(fromPath, dep) {
  // Node resolution inside the lock: nearest node_modules up the tree.
  let dir = fromPath;
  while (true) {
    const candidate = (dir ? `${dir}/` : "") + `node_modules/${dep}`;
    if (packages[candidate]) return { found: true, path: candidate };
    if (!dir) return { found: false, path: `node_modules/${dep}` };
    const idx = dir.lastIndexOf("/node_modules/");
    dir = idx === -1 ? "" : dir.slice(0, idx);
  }
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const { found, path: target } = resolveLocation(path, dep);
    if (found) continue;
    const version = String(range).replace(/^[\^~=]/, "");
    packages[target] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      ...(meta.devOptional ? { devOptional: true } : {}),
      optional: true,
      ...guess(dep),
    };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
