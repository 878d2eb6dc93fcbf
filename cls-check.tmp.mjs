import { chromium, devices } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const which = process.argv[2] ?? "desktop";
const vp = which === "lh-desktop" ? { viewport: { width: 1350, height: 940 } } : which === "mobile" ? devices["Pixel 7"] : devices["Desktop Chrome"];
const ctx = await browser.newContext({ ...vp });
const page = await ctx.newPage();
await page.addInitScript(() => {
  window.__cls = 0; window.__shifts = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) { if (!e.hadRecentInput) { window.__cls += e.value; window.__shifts.push({ v: e.value, t: Math.round(e.startTime), src: e.sources?.map((s) => s.node?.nodeName + "." + (s.node?.className?.toString?.() ?? "").slice(0, 40)) }); } } }).observe({ type: "layout-shift", buffered: true });
});
await page.goto(process.argv[3] ?? "http://localhost:3141/", { waitUntil: "load" });
await page.waitForTimeout(3500);
console.log(which, JSON.stringify(await page.evaluate(() => ({ cls: window.__cls, shifts: window.__shifts }))));
await browser.close();
