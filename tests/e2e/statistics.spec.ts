import { expect, test, type Locator, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

// Two proofs of work (the contact form and the booking form) on a loaded machine.
test.setTimeout(480_000);

// Two readers on one machine: the same address, so a different browser is what makes them two visitors.
// (Neither is the User-Agent of the other specs' browsers, whose visits would otherwise join these.)
const WINDOWS_EDGE =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0";
const BUDGET_POST = "/7fs/Finance/a-simple-budget-that-survives-real-life";
const WALKING_POST = "/7fs/Fitness/walking-meetings-for-busy-product-managers";

/** A path as "Came from" shows it: at most 48 characters, the last an ellipsis. */
const shortened = (path: string) => (path.length > 48 ? `${path.slice(0, 47)}…` : path);

/** A headline figure of the report ("Visitors", "Page views"…). */
const headline = (page: Page, label: string) =>
  page
    .getByTestId("statistics-headline")
    .locator("div")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator("dd")
    .first();

/** The row of a report table whose first cell is `value`. */
const rowOf = (table: Locator, value: string) =>
  table.getByRole("row").filter({ has: table.page().getByRole("cell", { name: value, exact: true }) });

test("visits from two browsers with their referrers and campaigns, a message and a booked call, as the owner reads them", async ({
  page,
  browser,
  baseURL,
}) => {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const spring = `spring-${unique}`;
  const launch = `launch-${unique}`;
  const email = `lead-${unique}@example.com`;
  const bookingEmail = `caller-${unique}@example.com`;

  // Reader one comes from LinkedIn with the spring campaign, reads a post and writes a message.
  const linkedIn = await browser.newContext({ baseURL, userAgent: WINDOWS_EDGE });
  const one = await linkedIn.newPage();
  await one.goto(`/?utm_source=linkedin&utm_medium=social&utm_campaign=${spring}`, { referer: "https://www.linkedin.com/feed/" });
  await one.goto(BUDGET_POST);
  await one.goto("/contact");
  // Public pages set no cookie and load nothing from elsewhere.
  expect(await linkedIn.cookies()).toEqual([]);
  await one.getByRole("checkbox", { name: "I'm not a robot" }).click();
  await expect(one.getByRole("button", { name: "Send Message" })).toBeEnabled({ timeout: 90_000 });
  await one.getByLabel("Name", { exact: true }).fill("Lena Lead");
  await one.getByLabel("Email", { exact: true }).fill(email);
  await one.getByLabel("Message", { exact: true }).fill("Your budget post was useful; can we talk about a project?");
  await one.getByRole("button", { name: "Send Message" }).click();
  await expect(one.getByRole("dialog", { name: "Thank you, Lena!" })).toBeVisible();
  await linkedIn.close();

  // Reader two comes from Hacker News with the launch campaign, reads another post and books a call.
  const hackerNews = await browser.newContext({ baseURL, userAgent: MAC_FIREFOX });
  const two = await hackerNews.newPage();
  await two.goto(`/about?utm_source=hn&utm_campaign=${launch}`, { referer: "https://news.ycombinator.com/item?id=1" });
  await two.goto(WALKING_POST);
  await two.goto("/book");
  const slot = two
    .getByRole("region", { name: /Pick a time/ })
    .getByRole("link")
    .first();
  await slot.click();
  const form = two.getByRole("form", { name: "Your details" });
  await form.getByLabel("Name", { exact: true }).fill("Carl Caller");
  await form.getByLabel("Email", { exact: true }).fill(bookingEmail);
  await form.getByTestId("human-verification").getByRole("checkbox").click();
  await expect(two.locator('input[name="verificationToken"]')).not.toHaveValue("", { timeout: 90_000 });
  await two.getByRole("button", { name: "Book this call" }).click();
  await expect(two.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();
  await hackerNews.close();

  // The owner's report (it stores the server's noted views before reading: no waiting for the flush).
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/statistics?period=today");
  await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
  const referrers = page.getByTestId("statistics-referrer");
  await expect(rowOf(referrers, "linkedin.com")).toBeVisible();
  await expect(rowOf(referrers, "news.ycombinator.com")).toBeVisible();
  const campaigns = page.getByTestId("statistics-campaign");
  await expect(rowOf(campaigns, spring)).toBeVisible();
  await expect(rowOf(campaigns, launch)).toBeVisible();
  // Each conversion is counted for its visit's campaign, referrer and last post read, by kind.
  const byCampaign = page.getByTestId("statistics-conversions-campaign");
  // Columns: name, contact messages, subscriptions, booked calls.
  await expect(rowOf(byCampaign, spring).getByRole("cell")).toHaveText([spring, "1", "0", "0"]);
  await expect(rowOf(byCampaign, launch).getByRole("cell")).toHaveText([launch, "0", "0", "1"]);
  const byPost = page.getByTestId("statistics-conversions-post");
  await expect(rowOf(byPost, WALKING_POST).getByRole("cell").nth(3)).toHaveText(/^[1-9]\d*$/);
  await expectNoSeriousAxeViolations(page);

  // A campaign's row filters the whole report to its visits: one visitor, one visit, three pages.
  await campaigns.getByRole("link", { name: spring, exact: true }).click();
  await expect(page.getByTestId("statistics-filter")).toContainText(spring);
  await expect(headline(page, "Visitors")).toHaveText("1");
  await expect(headline(page, "Visits")).toHaveText("1");
  await expect(headline(page, "Page views")).toHaveText("3");
  await expect(headline(page, "Contact messages")).toHaveText("1");
  await expect(headline(page, "Booked calls")).toHaveText("0");
  await expect(page.getByTestId("statistics-page").getByRole("row")).toHaveCount(4);
  // (Read here, not in the whole day's top pages: the other specs' visits of the day may push one view out of them.)
  await expect(rowOf(page.getByTestId("statistics-page"), BUDGET_POST)).toBeVisible();
  await expect(page.getByTestId("statistics-browser").getByRole("row")).toHaveCount(2);
  await expect(rowOf(page.getByTestId("statistics-browser"), "Edge")).toBeVisible();

  // The message and the booking say where they came from.
  await page.goto("/admin/messages");
  const message = page.getByTestId("contact-message").filter({ hasText: email });
  await message.locator("summary").click();
  await expect(message).toContainText(`Came from: linkedin.com → / (campaign: ${spring}); last post read: ${shortened(BUDGET_POST)}`);
  await page.goto("/admin/bookings");
  await expect(page.getByTestId("booking-row").filter({ hasText: bookingEmail })).toContainText(
    `Came from: news.ycombinator.com → /about (campaign: ${launch}); last post read: ${shortened(WALKING_POST)}`,
  );

  // Where posts are managed: the views column, the editor's figures, the dashboard's week.
  await page.goto("/admin/blog");
  const budgetRow = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "A Simple Budget That Survives Real Life" }) });
  await expect(budgetRow.getByTestId("post-views")).toHaveText(/· [1-9]\d* views? in 30 days/);
  await page.goto(`${BUDGET_POST}/edit`);
  await expect(page.getByTestId("post-figures")).toHaveText(
    /^Last 30 days: [1-9]\d* views? · [1-9]\d* visitors? · [1-9]\d* contact messages? · /,
  );
  await page.goto("/admin");
  const card = page.getByTestId("statistics-card");
  await expect(card.getByTestId("statistics-week")).toHaveText(/^[1-9]\d* page views? · [1-9]\d* visitors?$/);
  await expect(card.getByRole("list", { name: "Page views per day" }).getByRole("listitem")).toHaveCount(7);
  await expect(card.getByTestId("statistics-top-post")).toContainText("Top post of the week: /7fs/");
  await expectNoSeriousAxeViolations(page);
});

test("a custom period: chosen by its dates, refused with the reason when they make no sense", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  const refused = await page.goto("/admin/statistics?period=custom&from=2026-01-10&to=2026-01-01");
  expect(refused?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText(
    "The custom period's From date must be on or before its To date. Showing the last 7 days instead.",
  );
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
  await expectNoSeriousAxeViolations(page);

  await page.goto("/admin/statistics?period=7d");
  const to = await page.getByLabel("To", { exact: true }).inputValue();
  const from = new Date(Date.parse(`${to}T12:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${from}&to=${to}`));
  await expect(page.getByText(`${from} – ${to}, compared with the period before.`)).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // Three days in the chart's table.
  await page.getByText("Chart as a table").click();
  await expect(page.locator("details").filter({ hasText: "Chart as a table" }).getByRole("row")).toHaveCount(4);
});
