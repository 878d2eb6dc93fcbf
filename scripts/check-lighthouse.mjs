// Lighthouse check: mobile, simulated throttling, on five public pages, against the
// production server (started here on a scratch data directory with the demo content, external feeds
// refused, or LIGHTHOUSE_URL). Prints the four category scores per page; fails when accessibility,
// best practices or SEO is below 100. Performance depends on the machine's load: it is printed beside
// its goal (98), not asserted. Needs a production build and Chromium (CHROME_PATH, else
// /usr/bin/chromium). Usage: npm run check:lighthouse
import { spawn } from "node:child_process";
import os from "node:os";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { scriptTempDir } from "./temp-dir.mjs";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3840);
const PERFORMANCE_GOAL = 98;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

async function startServer() {
  const dataDir = scriptTempDir("check-lighthouse-");
  const refused = "http://127.0.0.1:9/";
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SUBSTACK_URL: refused,
      TSP_BLOG_URL: refused,
      TSP_KB_URL: refused,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${PORT}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error("the production server did not start (run `npm run build` first)");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base, stop: () => child.kill("SIGTERM") };
}

/** The newest post's address, from the site's own feed. */
async function newestPost(base) {
  const feed = await (await fetch(`${base}/rss.xml`)).text();
  const link = /<item>[\s\S]*?<link>([^<]+)<\/link>/.exec(feed)?.[1];
  if (!link) throw new Error("the feed lists no post");
  return new URL(link).pathname;
}

const server = process.env.LIGHTHOUSE_URL ? { base: process.env.LIGHTHOUSE_URL.replace(/\/$/, ""), stop() {} } : await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  const pages = ["/", "/7fs/Faith", await newestPost(server.base), "/projects", "/contact"];
  // Each page once before measuring: the first visit fills the page cache, as a visitor's would.
  for (const page of pages) await (await fetch(server.base + page)).arrayBuffer();
  console.log(`${"page".padEnd(50)}${CATEGORIES.map((c) => c.padStart(16)).join("")}   LCP      TBT`);
  for (const page of pages) {
    const result = await lighthouse(server.base + page, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
    });
    const { categories, audits } = result.lhr;
    const scores = CATEGORIES.map((id) => Math.round((categories[id]?.score ?? 0) * 100));
    const below = CATEGORIES.filter((id, i) => id !== "performance" && scores[i] < 100);
    failed ||= below.length > 0;
    const performanceNote = scores[0] < PERFORMANCE_GOAL ? `  (performance below ${PERFORMANCE_GOAL})` : "";
    console.log(
      `${page.padEnd(50)}${scores.map((s) => String(s).padStart(16)).join("")}   ${audits["largest-contentful-paint"]?.displayValue ?? "–"}   ${audits["total-blocking-time"]?.displayValue ?? "–"}${performanceNote}${below.length ? `  FAIL: ${below.join(", ")}` : ""}`,
    );
  }
} finally {
  await chrome.kill();
  server.stop();
}
console.log(
  `\nmachine: ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
if (failed) {
  console.error("Accessibility, best practices and SEO must be 100 on every page.");
  process.exit(1);
}
