import { chromium, devices } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const pages = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/hero-mockups", "/contact", "/auth", "/7fs/Faith", "/7fs/Faith/starting-each-week-with-purpose", "/nope"];
for (const [name, opts] of [["desktop", devices["Desktop Chrome"]], ["mobile", devices["Pixel 7"]]]) {
  const ctx = await browser.newContext({ ...opts });
  const page = await ctx.newPage();
  for (const p of pages) {
    await page.goto(`http://localhost:3141${p}`, { waitUntil: "networkidle" });
    for (const mode of ["top", "scrolled"]) {
      if (mode === "scrolled") { await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2)); await page.waitForTimeout(300); }
      const r = await new AxeBuilder({ page }).analyze();
      const v = r.violations.filter((x) => x.impact === "serious" || x.impact === "critical" || x.impact === "moderate");
      if (v.length) console.log(name, p, mode, JSON.stringify(v.map((x) => ({ id: x.id, impact: x.impact, n: x.nodes.slice(0, 3).map((n) => [n.target.join(" "), n.failureSummary?.slice(0, 150)]) }))));
    }
  }
  await ctx.close();
}
await browser.close();
console.log("done");
