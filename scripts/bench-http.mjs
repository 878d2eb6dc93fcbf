// HTTP throughput/latency benchmark against a running server (default http://127.0.0.1:3000).
// Usage: npm start (elsewhere), then: npm run bench:http -- [url-path ...]
// Env: BENCH_URL, BENCH_SECONDS (10), BENCH_CONNECTIONS (20). Prints figures; asserts nothing.
const base = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/healthz"];

async function run(pathname) {
  const url = new URL(pathname, base).toString();
  const latencies = [];
  let errors = 0;
  let bytes = 0;
  const end = performance.now() + seconds * 1000;
  async function worker() {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const response = await fetch(url);
        const body = await response.arrayBuffer();
        bytes += body.byteLength;
        if (!response.ok) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
  console.log(
    `${pathname}: ${(latencies.length / seconds).toFixed(0)} req/s, p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, errors ${errors}, ${(bytes / latencies.length / 1024).toFixed(1)} KiB/response (${connections} connections, ${seconds} s)`,
  );
}

for (const p of paths) await run(p);
