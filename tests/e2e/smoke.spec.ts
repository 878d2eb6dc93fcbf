import { expect, test } from "./helpers/test";
import { SAME_ON_PHONES } from "./constants";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

test("home page is server-rendered and accessible", async ({ page, request }) => {
  const html = await (await request.get("/")).text();
  expect(html).toContain("View My Work");

  await page.goto("/");
  await expect(page.getByRole("link", { name: "View My Work" })).toHaveAttribute("href", "/projects");
  await expect(page.getByRole("link", { name: "Get In Touch" })).toHaveAttribute("href", "/contact");
  await expectNoSeriousAxeViolations(page);
});

test("unknown paths show the not-found page with a 404 status and a link home", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test(
  "liveness answers without the database; readiness reports the database, migrations and storage",
  { tag: SAME_ON_PHONES },
  async ({ request }) => {
    const live = await request.get("/healthz");
    expect(live.status()).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok", migrations: "ok", storage: "ok" });
  },
);

test("every seeded role can sign in through the login endpoint", { tag: SAME_ON_PHONES }, async ({ page }) => {
  const { loginThroughEndpoint } = await import("./helpers/auth");
  const { E2E_ADMIN, E2E_MODERATOR, E2E_USER } = await import("./constants");
  for (const account of [E2E_ADMIN, E2E_MODERATOR, E2E_USER]) {
    await page.context().clearCookies();
    await loginThroughEndpoint(page, account);
    const cookies = await page.context().cookies();
    const sid = cookies.find((c) => c.name === "sid");
    expect(sid?.httpOnly).toBe(true);
    expect(sid?.sameSite).toBe("Lax");
  }
  await page.context().clearCookies();
  await expect(loginThroughEndpoint(page, { email: E2E_ADMIN.email, password: "wrong password here" })).rejects.toThrow(/401/);
});
