// Soak: a production server (started here on a scratch embedded data directory with the demo
// content) under a mixed read/write workload for SOAK_MINUTES. Every minute it prints the server's
// RSS, event-loop delay p99 and heap (from its own /metrics); at the end, RSS against its value after
// the first minute. It also prints the RSS of the idle server right after start and after the soak. The goal (docs/decisions/0064-faults.md): at most 10 % above it; exits 1 when over.
// Needs a production build. Usage: npm run bench:soak
// Env: SOAK_MINUTES (10), SOAK_PORT (3850), SOAK_CONCURRENCY (4), SOAK_GOAL_PERCENT (10).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { easyAltchaToken } from "../tests/helpers/altcha";
import { serverNodeArgs } from "./server-node-args.mjs";
import { scriptTempDir } from "./temp-dir.mjs";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const PORT = Number(process.env.SOAK_PORT ?? 3850);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const GOAL_PERCENT = Number(process.env.SOAK_GOAL_PERCENT ?? 10);
const SECRET = "soak-secret-0123456789abcdef0123456789";
const METRICS_TOKEN = "soak-metrics-token-0123456789";
const ADMIN = { email: "owner@soak.example", password: "soak benchmark pass phrase 1" };
const base = `http://127.0.0.1:${PORT}`;
const MIB = 1024 * 1024;
/** How long the server is left quiet before an idle reading. */
const IDLE_MS = 11_000;

const dataDir = scriptTempDir("bench-soak-");
let server: ChildProcess | undefined;

function startServer(): ChildProcess {
  const child = spawn(process.execPath, [...serverNodeArgs(), "server.js"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      AUTH_SECRET: SECRET,
      METRICS_TOKEN,
      INITIAL_ADMIN_EMAIL: ADMIN.email,
      INITIAL_ADMIN_PASSWORD: ADMIN.password,
      CONTACT_RATE_LIMIT_PER_10_MIN: "1000000",
      LOGIN_RATE_LIMIT_PER_IP: "1000",
      // External feeds refused at once: the soak measures this server, not the network.
      SUBSTACK_URL: "http://127.0.0.1:9/",
      TSP_BLOG_URL: "http://127.0.0.1:9/",
      TSP_KB_URL: "http://127.0.0.1:9/",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.once("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM") {
      console.error(`server exited with ${code ?? signal}`);
      process.exit(1);
    }
  });
  return child;
}

async function waitForServer(ms = 120_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() - started > ms) throw new Error(`the server did not start within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function signIn(): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password, verificationToken: await easyAltchaToken(SECRET) }),
  });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (!response.ok || !cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}

interface Sample {
  rssMiB: number;
  heapUsedMiB: number;
  loopP99Ms: number;
}

/** The server's own figures from its /metrics (prom-client's defaults; the event-loop histogram restarts at every scrape). */
async function sample(): Promise<Sample> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => {
    const match = new RegExp(`^${name} ([0-9.e+-]+)`, "m").exec(text);
    if (!match?.[1]) throw new Error(`no ${name} in /metrics`);
    return Number(match[1]);
  };
  return {
    rssMiB: value("process_resident_memory_bytes") / MIB,
    heapUsedMiB: value("nodejs_heap_size_used_bytes") / MIB,
    loopP99Ms: value("nodejs_eventloop_lag_p99_seconds") * 1000,
  };
}

/**
 * The server's RSS (/proc/PID/status) after it has had no request for a while: the server collects
 * once it has been quiet 1 s (app/server/gc.server.ts) and hands malloc's free pages back every 10 s
 * (app/server/glibc-malloc.server.ts). Read from /proc, so the reading itself is no request.
 */
async function idleRssMiB(): Promise<string> {
  await new Promise((r) => setTimeout(r, IDLE_MS));
  try {
    const status = fs.readFileSync(`/proc/${server?.pid}/status`, "utf8");
    return (Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024).toFixed(1);
  } catch {
    return "n/a";
  }
}

let requests = 0;
let failures = 0;
const statuses = new Map<number, number>();

async function request(pathname: string, init: RequestInit = {}): Promise<Response | undefined> {
  try {
    const response = await fetch(`${base}${pathname}`, { redirect: "manual", ...init });
    await response.arrayBuffer();
    requests++;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500) failures++;
    return response;
  } catch {
    failures++;
    return undefined;
  }
}

/**
 * One worker's mix, one step per call: anonymous reads (mostly page-cache hits, some uncached
 * searches and listings), signed-in admin pages (rendered every time), contact messages (a write
 * and an outbox row each) and post edits (a write that bumps the content version, so cached pages
 * are rendered again).
 */
async function step(i: number, cookie: string, postPaths: string[]): Promise<void> {
  const kind = i % 10;
  if (kind <= 3) await request(postPaths[i % postPaths.length] ?? "/");
  else if (kind === 4) await request("/");
  else if (kind === 5) await request(`/search?q=${["faith", "code", "life", "work"][i % 4] ?? "x"}`);
  else if (kind === 6) await request("/admin/blog", { headers: { cookie } });
  else if (kind === 7) await request("/admin", { headers: { cookie } });
  else if (kind === 8) {
    await request("/api/send-contact-email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({
        name: `Soak ${i}`,
        email: `soak${i}@example.com`,
        message: `Soak message ${i} ${"lorem ipsum ".repeat(20)}`,
        clientId: randomUUID(),
        turnstileToken: await easyAltchaToken(SECRET),
      }),
    });
  } else {
    await request("/7fs/Faith/new", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie },
      body: new URLSearchParams({
        title: `Soak post ${i} ${Date.now()}`,
        content: `Written by the soak.\n\n${"Some **markdown** text. ".repeat(40)}`,
        published: "on",
        media: "[]",
      }).toString(),
    });
  }
}

async function main(): Promise<void> {
  server = startServer();
  await waitForServer();
  console.log(
    `idle after start (${IDLE_MS / 1000} s without a request): RSS ${await idleRssMiB()} MiB, machine load ${os.loadavg()[0]?.toFixed(1) ?? "?"}`,
  );
  const cookie = await signIn();
  // The category pages and the demo posts they list.
  const categories = [
    ...new Set([...(await (await fetch(`${base}/blog`)).text()).matchAll(/href="(\/7fs\/[A-Za-z]+)"/g)].map((m) => m[1] ?? "")),
  ];
  const postPaths = [...categories];
  for (const category of categories) {
    const page = await (await fetch(`${base}${category}`)).text();
    postPaths.push(...new Set([...page.matchAll(/href="(\/7fs\/[A-Za-z]+\/[a-z0-9-]+)"/g)].map((m) => m[1] ?? "")));
  }
  if (postPaths.length === 0) postPaths.push("/");
  console.log(`soak: ${MINUTES} min, ${CONCURRENCY} workers, ${postPaths.length} category and post pages, data in ${dataDir}`);
  await sample();
  const end = Date.now() + MINUTES * 60_000;
  let counter = 0;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) await step(counter++, cookie, postPaths);
  });
  const samples: Sample[] = [];
  const reporter = (async () => {
    for (let minute = 1; minute <= MINUTES; minute++) {
      await new Promise((r) => setTimeout(r, Math.max(0, end - (MINUTES - minute) * 60_000 - Date.now())));
      const s = await sample();
      samples.push(s);
      console.log(
        `minute ${minute}: RSS ${s.rssMiB.toFixed(1)} MiB, heap used ${s.heapUsedMiB.toFixed(1)} MiB, event-loop delay p99 ${s.loopP99Ms.toFixed(1)} ms, ${requests} requests, ${failures} failures, machine load ${os.loadavg()[0]?.toFixed(1) ?? "?"}`,
      );
    }
  })();
  await Promise.all([...workers, reporter]);
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) throw new Error("no samples");
  const growth = ((last.rssMiB - first.rssMiB) / first.rssMiB) * 100;
  console.log(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(
    `RSS after minute 1: ${first.rssMiB.toFixed(1)} MiB; at the end: ${last.rssMiB.toFixed(1)} MiB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %, goal <= +${GOAL_PERCENT} %)`,
  );
  console.log(`idle after the soak (${IDLE_MS / 1000} s without a request): RSS ${await idleRssMiB()} MiB`);
  if (failures > 0) console.log(`${failures} requests failed (5xx or no answer)`);
  process.exitCode = growth <= GOAL_PERCENT && failures === 0 ? 0 : 1;
}

try {
  await main();
} finally {
  server?.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1000));
}
