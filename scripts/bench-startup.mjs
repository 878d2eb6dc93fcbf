// Start-up benchmark: time from process start to a healthy /healthz, and memory, for a first start
// (empty data directory: migrations + seeding) and a second start (existing data). Prints figures;
// asserts nothing. Needs a production build (`npm run build`). Usage: npm run bench:startup
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.BENCH_PORT ?? 3199);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-startup-"));

function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return (kb / 1024).toFixed(1);
  } catch {
    return "n/a";
  }
}

async function startOnce(label) {
  const started = performance.now();
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      INITIAL_ADMIN_PASSWORD: "benchmark pass phrase 1",
    },
    stdio: "ignore",
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
  const exited = new Promise((r) => child.once("exit", r));
  const stopAt = performance.now();
  child.kill("SIGTERM");
  await exited;
  console.log(
    `${label}: ready ${ready.toFixed(0)} ms, first page ${firstPage.toFixed(0)} ms, RSS ${rss} MiB, clean stop ${(performance.now() - stopAt).toFixed(0)} ms`,
  );
}

try {
  await startOnce("first start (migrate + seed)");
  await startOnce("second start            ");
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
