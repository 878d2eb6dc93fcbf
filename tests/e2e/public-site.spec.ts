import { expect, test, type TestInfo } from "./helpers/test";
import { E2E_ADMIN, E2E_USER } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

const isMobile = (testInfo: TestInfo) => testInfo.project.name === "mobile";

const PAGES: Array<{ path: string; heading: string; texts: string[] }> = [
  {
    path: "/",
    heading: "Product Manager, Project Manager & Application Developer",
    texts: [
      "Featured Work",
      "About Me",
      "Expertise",
      "Product Management",
      "Project Management",
      "Program Management",
      "Application Development",
      "Reach Me",
    ],
  },
  { path: "/about", heading: "About Me", texts: ["Education", "Certifications", "Skills", "Tools", "Download My Resume"] },
  {
    path: "/recent-roles",
    heading: "Recent Roles",
    texts: [
      "Technical Product Manager",
      "02/2022 – 07/2025 · Remote, USA",
      "System Project Consultant",
      "Digital consulting agency",
      "Training and knowledge-base business",
    ],
  },
  {
    path: "/projects",
    heading: "Web Development Projects",
    texts: ["Other Projects", "Client Onboarding Portal", "ERP Migration Program Plan"],
  },
  { path: "/testimonials", heading: "Testimonials", texts: ["What colleagues and clients say about working with me"] },
  {
    path: "/hero-mockups",
    heading: "Hero Section Options",
    texts: ["Option 1: Split Hero", "Option 5: Video Intro", "Which option do you prefer?"],
  },
];

test.describe("public pages", () => {
  test.beforeEach(async ({ page }) => {
    // Sections below the fold fade in on scroll; reduced motion shows them at once for axe's contrast checks.
    await page.emulateMedia({ reducedMotion: "reduce" });
  });

  for (const { path, heading, texts } of PAGES) {
    test(`${path} shows its content and has no serious accessibility violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      for (const text of texts) await expect(page.getByRole("main").getByText(text, { exact: true }).first()).toBeVisible();
      await expect(page).toHaveTitle(/.+/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path === "/" ? "/" : path}$`));
      await expectNoSeriousAxeViolations(page);
    });
  }

  test("home: hero buttons, Featured Work cards, 7Fs teaser and the scheduling embed", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "View My Work" })).toHaveAttribute("href", "/projects");
    await expect(page.getByRole("link", { name: "Get In Touch" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("list", { name: "Certifications" }).getByRole("listitem")).not.toHaveCount(0);
    const featured = page.getByRole("region", { name: "Featured Work" });
    const readArticle = featured.getByRole("link", { name: /^Read Article:/ });
    await expect(readArticle).toHaveAttribute("href", /^\/7fs\/(Faith|Finance|Fitness|Fun|Friends|Family|Figurehead)\/[a-z0-9-]+$/);
    // No feed is configured for the e2e server: their cards are omitted, the spinner goes away.
    await expect(featured.getByRole("status")).toHaveCount(0);
    await expect(featured.getByRole("article")).toHaveCount(2);
    await expect(featured.getByText("Web Project")).toBeVisible();
    await expect(page.getByRole("link", { name: "Read the Latest Article" })).toHaveAttribute("href", /^\/7fs\/[A-Za-z]+\/[a-z0-9-]+$/);
    // Booking is built in (no third-party frame): Reach Me links to the site's own booking page.
    await expect(page.getByTitle("Schedule a one-on-one call")).toHaveCount(0);
    await expect(page.locator('main a[href^="/book"]').first()).toBeVisible();
  });

  test("projects: cards with image, title and description; images sized, lazy below the fold", async ({ page }) => {
    await page.goto("/projects");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Client Onboarding Portal" }) });
    await expect(card.getByRole("img")).toHaveAttribute("width", "800");
    await expect(card.getByRole("img")).toHaveAttribute("height", "450");
    expect(await card.getByRole("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.goto("/hero-mockups");
    const images = page.getByRole("img", { name: /^Mock-up of/ });
    await expect(images).toHaveCount(5);
    await expect(images.nth(0)).toHaveAttribute("loading", "eager");
    await expect(images.nth(4)).toHaveAttribute("loading", "lazy");
  });

  test("robots.txt and sitemap.xml", async ({ request }) => {
    expect(await (await request.get("/robots.txt")).text()).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap\.xml/);
    expect(await (await request.get("/sitemap.xml")).text()).toMatch(/<sitemap><loc>http:\/\/localhost:\d+\/sitemaps\/posts-1\.xml<\/loc>/);
    expect(await (await request.get("/sitemaps/pages.xml")).text()).toMatch(/<loc>http:\/\/localhost:\d+\/testimonials<\/loc>/);
    const posts = await (await request.get("/sitemaps/posts-1.xml")).text();
    expect(posts).toMatch(/<loc>http:\/\/localhost:\d+\/7fs\/Faith\/starting-each-week-with-purpose<\/loc>/);
  });
});

test.describe("layout", () => {
  test("sections fade in when scrolled into view and stay visible", async ({ page }) => {
    await page.goto("/");
    const expertise = page.getByRole("region", { name: "Expertise" });
    await expect(expertise).toHaveAttribute("data-reveal", "hidden");
    await expertise.scrollIntoViewIfNeeded();
    await expect(expertise).toHaveAttribute("data-reveal", "shown");
    await expect(expertise).toHaveCSS("opacity", "1");
  });

  test("public pages load with no console errors and no failed same-site requests (favicon included)", async ({ page, baseURL }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    page.on("response", (response) => {
      if (response.url().startsWith(baseURL ?? "") && response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/hero-mockups"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    expect(problems).toEqual([]);
  });

  test("a spinner shows in the top bar while the next page loads (e.g. My Projects)", async ({ page }) => {
    await page.goto("/about");
    await page.waitForLoadState("networkidle");
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold the projects page (its document: the anonymous /about has no React router) so the
    // loading state lasts long enough to observe.
    await page.route(/\/projects(\.data)?$/, async (route) => {
      await held;
      await route.continue();
    });
    // While the browser waits for the next document, locators wait for it too: the page itself
    // reports the spinner once it shows, with the status text read out.
    let reportShown: (status: string) => void = () => undefined;
    const shown = new Promise<string>((resolve) => {
      reportShown = resolve;
    });
    await page.exposeFunction("__spinnerShown", (status: string) => reportShown(status));
    await page.evaluate(() => {
      const spinner = document.querySelector('[data-testid="page-loading"]');
      const observer = new MutationObserver(() => {
        const report: unknown = Reflect.get(window, "__spinnerShown");
        if (!spinner?.checkVisibility() || typeof report !== "function") return;
        void report(spinner.closest('[role="status"]')?.textContent ?? "");
        observer.disconnect();
      });
      observer.observe(document.body, { attributes: true, subtree: true });
    });
    await page.getByRole("contentinfo").getByRole("link", { name: "My Projects" }).click({ noWaitAfter: true });
    expect(await shown).toBe("Loading page…");
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Web Development Projects" })).toBeVisible();
    await expect(page.getByTestId("page-loading")).toBeHidden();
  });

  test("content is in the HTML without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Expertise" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Reach Me" })).toBeVisible();
    await context.close();
  });

  test("desktop menus work by keyboard", async ({ page }, testInfo) => {
    test.skip(isMobile(testInfo), "desktop top bar");
    await page.goto("/about");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Home", "About Me", "Recent Roles", "My Projects", "Testimonials", "Newsletter", "Contact Me", "Login"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/auth");

    const services = nav.getByRole("button", { name: "Services" });
    await services.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: "IT Consulting" })).toBeFocused();
    await expect(menu.getByRole("menuitem", { name: "IT Consulting" })).toHaveAttribute("target", "_blank");
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "IT Training" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(services).toBeFocused();

    // Tab moves on to the 7Fs menu; arrows choose a category, Enter follows it.
    await page.keyboard.press("Tab");
    const sevenFs = nav.getByRole("button", { name: "7Fs" });
    await expect(sevenFs).toBeFocused();
    await page.keyboard.press("ArrowDown");
    const items = page.getByRole("menu").getByRole("menuitem");
    await expect(items).toHaveText(["Faith", "Finance", "Fitness", "Fun", "Friends", "Family", "Figurehead"]);
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/7fs\/Finance$/);
  });

  test("desktop menus open and close with the mouse; one at a time", async ({ page }, testInfo) => {
    test.skip(isMobile(testInfo), "desktop top bar");
    await gotoHydrated(page, "/about");
    const nav = page.getByRole("navigation", { name: "Main" });
    const services = nav.getByRole("button", { name: "Services" });
    await expect(services).toHaveAttribute("aria-expanded", "false");
    await services.click();
    await expect(services).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("menu", { name: "Services" }).getByRole("menuitem")).toHaveCount(2);
    // Opening the other menu closes this one; a click elsewhere closes it too.
    await nav.getByRole("button", { name: "7Fs" }).click();
    await expect(page.getByRole("menu")).toHaveCount(1);
    await expect(page.getByRole("menu", { name: "7Fs" })).toBeVisible();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("menu")).toHaveCount(0);
    await nav.getByRole("button", { name: "7Fs" }).click();
    await page.getByRole("menu", { name: "7Fs" }).getByRole("menuitem", { name: "Family" }).click();
    await expect(page).toHaveURL(/\/7fs\/Family$/);
    await expect(page.getByRole("menu")).toHaveCount(0);
  });

  test("the mobile menu closes from its Close button and from the backdrop", async ({ page }, testInfo) => {
    test.skip(!isMobile(testInfo), "mobile menu");
    await gotoHydrated(page, "/projects");
    const trigger = page.getByRole("button", { name: "Open menu" });
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await trigger.click();
    await expect(dialog).toBeVisible();
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await trigger.click();
    await expect(dialog).toBeVisible();
    // The backdrop is the part of the <dialog> left of the panel.
    await page.mouse.click(10, 400);
    await expect(dialog).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
  });

  test("at the lg breakpoint the whole top bar fits on one line; below it the menu button takes over", async ({ page }, testInfo) => {
    test.skip(isMobile(testInfo), "desktop widths");
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    expect((await nav.boundingBox())?.height).toBeLessThanOrEqual(40);
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    await page.setViewportSize({ width: 1023, height: 768 });
    await expect(nav).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
  });

  test("mobile menu opens, traps focus, closes and navigates by keyboard", async ({ page }, testInfo) => {
    test.skip(!isMobile(testInfo), "mobile menu");
    await page.goto("/testimonials");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const trigger = page.getByRole("button", { name: "Open menu" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();
    for (const name of [
      "Home",
      "About Me",
      "Recent Roles",
      "My Projects",
      "Testimonials",
      "Newsletter",
      "Contact Me",
      "IT Consulting",
      "IT Training",
      "Faith",
      "Figurehead",
      "Login",
    ]) {
      await expect(dialog.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expectNoSeriousAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    const about = dialog.getByRole("link", { name: "About Me" });
    for (let i = 0; i < 10 && !(await about.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(about).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/about$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "About Me" })).toBeVisible();
  });

  test("footer groups, copyright and social links", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const name of ["Navigation", "Services", "Quick Links", "7Fs Framework"])
      await expect(footer.getByRole("heading", { name })).toBeVisible();
    await expect(footer.getByRole("link", { name: "Figurehead" })).toHaveAttribute("href", "/7fs/Figurehead");
    await expect(footer.getByText(/© \d{4}/)).toBeVisible();
    await expect(footer.getByRole("list", { name: "Social links" }).getByRole("link")).toHaveCount(3);
    await expect(footer.getByRole("link", { name: "Admin" })).toHaveCount(0);
  });

  test("signed in: Dashboard and footer Admin only with canEdit, Logout for everyone", async ({ page }, testInfo) => {
    const openAccountArea = async () => {
      if (!isMobile(testInfo)) return page.getByRole("navigation", { name: "Main" });
      await page.getByRole("button", { name: "Open menu" }).click();
      return page.getByRole("dialog", { name: "Menu" });
    };
    await loginAs(page, E2E_ADMIN);
    await page.goto("/about");
    let area = await openAccountArea();
    await expect(area.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/admin");
    await expect(area.getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(area.getByRole("link", { name: "Login" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");

    await page.context().clearCookies();
    await loginAs(page, E2E_USER);
    await page.goto("/about");
    area = await openAccountArea();
    await expect(area.getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(area.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Admin" })).toHaveCount(0);
  });

  test("a recovery link on any page but /auth goes to /auth with the fragment kept", async ({ page }) => {
    await page.goto("/testimonials#access_token=abc&type=recovery");
    // /auth reads the fragment into the Update Password form, then drops it from the address bar.
    await expect(page).toHaveURL(/\/auth(#access_token=abc&type=recovery)?$/);
    await expect(page.getByRole("heading", { name: "Update Password" })).toBeVisible();
    await page.goto("/about#section=2");
    await expect(page.getByRole("heading", { level: 1, name: "About Me" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/about");
  });
});
