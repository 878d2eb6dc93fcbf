import { chromium, devices } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const pages = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/hero-mockups", "/contact", "/auth", "/7fs/Faith", "/7fs/Faith/starting-each-week-with-purpose", "/nope"];
for (const [name, opts] of [["desktop", devices["Desktop Chrome"]], ["mobile", devices["Pixel 7"]]]) {
  const ctx = await browser.newContext({ ...opts });
  const page = await ctx.newPage();
  const msgs = [];
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") msgs.push(`${m.type()}: ${m.text().slice(0, 200)}`); });
  page.on("pageerror", (e) => msgs.push(`pageerror: ${e.message.slice(0, 200)}`));
  page.on("requestfailed", (r) => { if (!r.url().includes("calendly") && !r.url().includes("3149")) msgs.push(`failed: ${r.url()}`); });
  page.on("response", (r) => { if (r.status() >= 400 && !r.url().includes("/nope")) msgs.push(`${r.status()}: ${r.url()}`); });
  for (const p of pages) {
    msgs.length = 0;
    await page.goto(`http://localhost:3141${p}`, { waitUntil: "networkidle" });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(500);
    // horizontal overflow
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (msgs.length || overflow > 0) console.log(name, p, "overflow=" + overflow, msgs);
  }
  await ctx.close();
}
await browser.close(); console.log("done");
