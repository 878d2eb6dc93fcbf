// Start-up benchmark: time from process start to a healthy /healthz, and memory, for a first start
// (empty data directory: migrations + seeding) and a second start (existing data), with the server's
// own memory log at each start-up stage (RSS before vs after the database opens = PGlite's share),
// RSS once the server has been idle 11 s after its first page, then RSS after a workload like the e2e suite's (every public and admin page a few times, sign in,
// an image upload, share images drawn) and again after 11 s idle: as `npm start` runs the server
// (package.json's flags, scripts/server-node-args.mjs), as a plain `node server.js`, and with V8's
// default WASM tiering (server.js's escape hatch), each on its own copy of the same data directory, and
// once more as `npm start` right after a first start on an empty directory (as the e2e suite's servers
// run), with which mappings hold the RSS. Prints figures; asserts nothing. Needs a production build (`npm run build`).
// Usage: npm run bench:startup
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { solveChallenge } from "altcha-lib";
import { serverNodeArgs } from "./server-node-args.mjs";
import fs from "node:fs";
import { scriptTempDir } from "./temp-dir.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 3199);
const dataDir = scriptTempDir("bench-startup-");
/** When RSS is read again while the server is left idle after the workload. */
const IDLE_READINGS_MS = [2_000, 11_000];

/**
 * Which mappings hold the RSS (/proc/PID/smaps). A WebAssembly memory is a read-write mapping followed
 * by GiBs of reserved, inaccessible address space (V8's guard region; PGlite's is 128 MiB, of which
 * only the touched pages count); glibc's per-thread malloc arenas are 64 MiB-aligned regions of at most
 * 64 MiB; compiled code (JavaScript and WASM) is anonymous and executable; the rest of the anonymous
 * memory is the V8 heap and malloc's own large blocks; [heap] is the main thread's malloc heap.
 */
function rssBreakdown(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return "n/a";
  }
  const ARENA = 64 * 2 ** 20;
  const mappings = [];
  for (const line of text.split("\n")) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      mappings.push({ start: parseInt(mapping[1], 16), end: parseInt(mapping[2], 16), perms: mapping[3], name: mapping[4], kb: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && mappings.length > 0) mappings[mappings.length - 1].kb = Number(rss[1]);
  }
  const kinds = new Map();
  let arenaEnd = 0;
  mappings.forEach((m, i) => {
    const next = mappings[i + 1];
    let kind;
    if (m.name === "[heap]") kind = "malloc main heap";
    else if (m.name !== "") kind = "files + stack";
    else if (next && next.start === m.end && next.perms.startsWith("---") && next.end - next.start >= 2 ** 32) kind = "WASM memories";
    else if (m.perms.includes("x")) kind = "compiled code";
    else if (m.start < arenaEnd || (m.start % ARENA === 0 && m.end - m.start <= ARENA)) {
      if (m.start % ARENA === 0) arenaEnd = m.start + ARENA;
      kind = "malloc thread arenas";
    } else kind = "V8 heap + other";
    kinds.set(kind, (kinds.get(kind) ?? 0) + m.kb);
  });
  return [...kinds].map(([name, kb]) => `${name} ${(kb / 1024).toFixed(1)}`).join(", ");
}

function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return (kb / 1024).toFixed(1);
  } catch {
    return "n/a";
  }
}

const ADMIN_EMAIL = "bench-admin@example.com";
const ADMIN_PASSWORD = "benchmark pass phrase 1";
const base = `http://127.0.0.1:${PORT}`;

async function get(pathname, cookie) {
  const response = await fetch(base + pathname, { headers: cookie ? { cookie } : {} });
  const body = await response.text();
  if (response.status >= 500) throw new Error(`${pathname}: ${response.status}`);
  return body;
}

async function signIn() {
  const challenge = await (await fetch(`${base}/api/verification/challenge`)).json();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  const verificationToken = Buffer.from(JSON.stringify({ ...challenge, number: solution.number })).toString("base64");
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, verificationToken }),
  });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (!response.ok || !cookie) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return cookie;
}

const PUBLIC_PAGES = [
  "/",
  "/about",
  "/recent-roles",
  "/projects",
  "/testimonials",
  "/contact",
  "/search?q=faith",
  "/subscribe",
  "/rss.xml",
  "/sitemap.xml",
  "/robots.txt",
  "/manifest.webmanifest",
  "/no-such-page",
];
const ADMIN_PAGES = [
  "/admin",
  "/admin/blog",
  "/admin/projects",
  "/admin/users",
  "/admin/messages",
  "/admin/settings",
  "/admin/testimonials",
  "/admin/recent-roles",
  "/admin/about",
  "/admin/audit",
  "/admin/subscribers",
  "/admin/account",
];

/** Returns how many requests it made. */
async function workload() {
  let requests = 0;
  const home = await get("/");
  requests++;
  const links = [...new Set([...home.matchAll(/href="(\/7fs\/[^"?#]+)"/g)].map((m) => m[1]))];
  const categories = links.filter((l) => l.split("/").length === 3);
  const posts = links.filter((l) => l.split("/").length === 4);
  const cookie = await signIn();
  requests += 2;
  for (let round = 0; round < 3; round++) {
    for (const page of [...PUBLIC_PAGES, ...categories, ...posts]) {
      const body = await get(page);
      requests++;
      if (round === 0) {
        // Share images are drawn on first request.
        for (const image of body.matchAll(/property="og:image" content="[^"]*?(\/share-images\/[^"]+)"/g)) {
          await get(image[1].replaceAll("&amp;", "&"));
          requests++;
        }
      }
    }
    for (const page of [...ADMIN_PAGES, ...categories.map((c) => `${c}/new`), ...posts, ...PUBLIC_PAGES]) {
      await get(page, cookie);
      requests++;
    }
  }
  const form = new FormData();
  form.append("files", new Blob([fs.readFileSync("public/images/og/default.jpg")], { type: "image/jpeg" }), "bench.jpg");
  const upload = await fetch(`${base}/api/uploads`, { method: "POST", headers: { origin: base, cookie }, body: form });
  if (!upload.ok) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
  requests++;
  return requests;
}

async function startOnce(label, withWorkload, dir = dataDir, extraEnv = {}, nodeArgs = serverNodeArgs()) {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, "server.js"], {
    env: {
      ...process.env,
      ...extraEnv,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      LOG_LEVEL: "info",
      INITIAL_ADMIN_EMAIL: ADMIN_EMAIL,
      INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const stages = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      const entry = JSON.parse(line);
      if (entry.msg === "start-up memory") stages.push(entry);
    } catch {
      // not a log line
    }
  });
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/healthz`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (performance.now() - started > 120_000) throw new Error("server did not start within 120 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  const ready = performance.now() - started;
  const home = performance.now();
  await (await fetch(`http://127.0.0.1:${PORT}/`)).text();
  const firstPage = performance.now() - home;
  const rss = rssMiB(child.pid);
  // Idle: the first page's collection (1 s after it) and a malloc trim (every 10 s) have run.
  await new Promise((r) => setTimeout(r, IDLE_READINGS_MS.at(-1)));
  const idle = `  idle (${IDLE_READINGS_MS.at(-1) / 1000} s after the first page): RSS ${rssMiB(child.pid)} MiB\n    (${rssBreakdown(child.pid)} MiB)`;
  let afterWorkload = "";
  const exited = new Promise((r) => child.once("exit", r));
  let stopAt = performance.now();
  try {
    if (withWorkload) {
      const workloadStarted = performance.now();
      const requests = await workload();
      afterWorkload = `\n  after a workload like the e2e suite's (${requests} requests, ${((performance.now() - workloadStarted) / 1000).toFixed(1)} s): RSS ${rssMiB(child.pid)} MiB\n    (${rssBreakdown(child.pid)} MiB)`;
      // The server collects once it has been quiet 1 s (app/server/gc.server.ts) and hands malloc's
      // free pages back every 10 s (app/server/glibc-malloc.server.ts).
      let waited = 0;
      for (const at of IDLE_READINGS_MS) {
        await new Promise((r) => setTimeout(r, at - waited));
        waited = at;
        afterWorkload += `\n  ${at / 1000} s later, idle: RSS ${rssMiB(child.pid)} MiB\n    (${rssBreakdown(child.pid)} MiB)`;
      }
    }
  } finally {
    stopAt = performance.now();
    child.kill("SIGTERM");
    await exited;
  }
  console.log(
    `${label}: ready ${ready.toFixed(0)} ms, first page ${firstPage.toFixed(0)} ms (first 200 after ${(ready + firstPage).toFixed(0)} ms), RSS ${rss} MiB, clean stop ${(performance.now() - stopAt).toFixed(0)} ms`,
  );
  for (const stage of stages) {
    console.log(
      `  ${stage.stage.padEnd(20)} RSS ${String(stage.rssMiB).padStart(4)} MiB, heap ${stage.heapUsedMiB}, external ${stage.externalMiB}, arrayBuffers ${stage.arrayBuffersMiB} MiB`,
    );
  }
  console.log(idle);
  const before = stages.find((s) => s.stage === "before the database");
  const open = stages.find((s) => s.stage === "database open");
  if (before && open) {
    console.log(`  PGlite itself (RSS after it opens - before): ${open.rssMiB - before.rssMiB} MiB; ours: the rest of the RSS above`);
  }
  if (afterWorkload) console.log(afterWorkload.slice(1));
}

const copies = [1, 2].map((n) => scriptTempDir(`bench-startup-copy${n}-`));
const fresh = scriptTempDir("bench-startup-fresh-");
await startOnce("first start (migrate + seed)", false);
for (const copy of copies) fs.cpSync(dataDir, copy, { recursive: true });
await startOnce("second start            ", true);
// Without the young-generation flag of `npm start` (docs/decisions/0040-server-memory.md).
await startOnce("second start, plain node server.js", true, copies[0], {}, []);
// The reference for server.js's WASM setting (docs/decisions/0038-pglite-memory.md): V8's default tiering.
await startOnce("second start, node --no-liftoff-only", true, copies[1], {}, [...serverNodeArgs(), "--no-liftoff-only"]);
// What the e2e suite's servers do: the workload right after a first start (migrations, seeding and
// the demo posts' share-card jobs still in memory).
await startOnce("first start + workload  ", true, fresh);
