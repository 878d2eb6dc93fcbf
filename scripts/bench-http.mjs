// HTTP benchmark: autocannon against the production server (started here on a scratch data
// directory with the demo content), side by side in the same run with a bare Node http server (its
// own process) answering the same bytes from memory, so the ratio holds on a noisy machine.
// Prints figures; asserts nothing. Needs a production build. Usage: npm run bench:http
// Env: BENCH_PORT (3830), BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_URL (use a running server instead),
// BENCH_NODE_ARGS (node flags for the site's server instead of those `npm start` uses, to compare settings).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge } from "altcha-lib";
import autocannon from "autocannon";
import { serverNodeArgs } from "./server-node-args.mjs";
import { scriptTempDir } from "./temp-dir.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 3830);
const BARE_PORT = PORT + 1;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN_EMAIL = "owner@example.com";
const ADMIN_PASSWORD = "benchmark pass phrase 1";

const children = [];
const dataDir = scriptTempDir("bench-http-");

async function waitFor(url, ms = 120_000) {
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > ms) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(args, env) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  child.once("exit", (code) => {
    if (code) {
      console.error(`${args[0]} exited with ${code}`);
      process.exit(1);
    }
  });
  return child;
}

async function startApp() {
  if (process.env.BENCH_URL) return process.env.BENCH_URL;
  const nodeArgs = process.env.BENCH_NODE_ARGS === undefined ? serverNodeArgs() : process.env.BENCH_NODE_ARGS.split(" ").filter(Boolean);
  start([...nodeArgs, "server.js"], {
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    INITIAL_ADMIN_EMAIL: ADMIN_EMAIL,
    INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // External feeds refused at once: the benchmark measures this server, not the network.
    SUBSTACK_URL: "http://127.0.0.1:9/",
    TSP_BLOG_URL: "http://127.0.0.1:9/",
    TSP_KB_URL: "http://127.0.0.1:9/",
  });
  const base = `http://127.0.0.1:${PORT}`;
  await waitFor(`${base}/healthz`);
  await waitUntilSettled(`${base}/`);
  return base;
}

/**
 * Start-up keeps rendering stored posts beside the first requests: measured then, the first page
 * measures that work. Waits (at most a minute) until five requests in a row answer within 50 ms.
 */
async function waitUntilSettled(url) {
  const started = Date.now();
  let quick = 0;
  while (quick < 5 && Date.now() - started < 60_000) {
    const before = performance.now();
    await (await fetch(url)).arrayBuffer();
    quick = performance.now() - before < 50 ? quick + 1 : 0;
    if (quick === 0) await new Promise((r) => setTimeout(r, 200));
  }
}

/** A process that answers every request with one page's bytes and content type, from memory. */
async function startBare(file, contentType) {
  const source = `
    const body = require("node:fs").readFileSync(${JSON.stringify(file)});
    require("node:http").createServer((req, res) => {
      res.writeHead(200, { "content-type": ${JSON.stringify(contentType)}, "content-length": body.length });
      res.end(body);
    }).listen(${BARE_PORT}, "127.0.0.1");`;
  const child = start(["-e", source], {});
  await waitFor(`http://127.0.0.1:${BARE_PORT}/`);
  return child;
}

async function load(url, headers = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** Signs in through the real login API, solving the proof-of-work challenge as the widget does. */
async function signIn(base) {
  const challenge = await (await fetch(`${base}/api/verification/challenge`)).json();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  const verificationToken = Buffer.from(JSON.stringify({ ...challenge, number: solution.number, maxnumber: undefined })).toString("base64");
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, verificationToken }),
  });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (!response.ok || !cookie) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return cookie;
}

/**
 * Signed-in (uncached) pages before the page-cache and memory work, idle machine, 50 connections
 * (req/s): the target is at least twice these. Printed beside each run's figure as "× before".
 */
const SIGNED_IN_BEFORE = { "/admin": 58, "/7fs/Faith": 61 };

const rows = [];
try {
  const base = await startApp();
  const rss = await (await fetch(`${base}/rss.xml`)).text();
  const postUrl = /<item>[\s\S]*?<link>([^<]+)<\/link>/.exec(rss)?.[1];
  const postPath = postUrl ? new URL(postUrl).pathname : null;
  const pages = ["/", ...(postPath ? [postPath] : []), "/7fs/Faith", "/about", "/rss.xml"];
  for (const page of pages) {
    const response = await fetch(`${base}${page}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const file = path.join(dataDir, "bare-body");
    fs.writeFileSync(file, bytes);
    const bare = await startBare(file, response.headers.get("content-type") ?? "text/html");
    const app = await load(`${base}${page}`);
    const reference = await load(`http://127.0.0.1:${BARE_PORT}/`);
    bare.kill();
    await new Promise((r) => bare.once("exit", r));
    rows.push({ page, ...app, bare: reference.rps, ratio: app.rps / reference.rps, kib: bytes.length / 1024 });
  }
  const cookie = await signIn(base);
  for (const page of ["/admin", "/7fs/Faith"]) {
    const app = await load(`${base}${page}`, { cookie });
    rows.push({ page: `${page} (signed in)`, ...app, bare: null, ratio: null, kib: null, before: app.rps / SIGNED_IN_BEFORE[page] });
  }
} finally {
  for (const child of children) child.kill();
  await new Promise((r) => setTimeout(r, 500));
}

const cell = (value, width) => String(value).padStart(width);
console.log(
  `\n${connections} connections, ${seconds} s each, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      " ",
    )} (bare = node:http serving the same bytes from memory, same run; × before = signed-in req/s over ${JSON.stringify(SIGNED_IN_BEFORE)}, idle machine)\n`,
);
console.log(
  `${"page".padEnd(32)}${cell("req/s", 9)}${cell("p99 ms", 9)}${cell("errors", 8)}${cell("bare req/s", 12)}${cell("ratio", 8)}${cell("KiB", 8)}${cell("× before", 10)}`,
);
for (const r of rows) {
  console.log(
    `${r.page.padEnd(32)}${cell(r.rps.toFixed(0), 9)}${cell(r.p99, 9)}${cell(r.errors, 8)}${cell(r.bare === null ? "–" : r.bare.toFixed(0), 12)}${cell(r.ratio === null ? "–" : r.ratio.toFixed(2), 8)}${cell(r.kib === null ? "–" : r.kib.toFixed(1), 8)}${cell(r.before === undefined ? "" : r.before.toFixed(2), 10)}`,
  );
}
