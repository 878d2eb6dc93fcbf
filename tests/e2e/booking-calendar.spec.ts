import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

// The site's zone is the server's (UTC here); the owner's browser is elsewhere, which the calendar ignores.
test.use({ timezoneId: "Pacific/Auckland" });
// A booking's proof of work and an axe pass over the long Bookings page, on a loaded machine.
test.setTimeout(180_000);

const monthName = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(iso));
const nextMonth = (month: string) => {
  const [year = 0, number = 1] = month.split("-").map(Number);
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, "0")}`;
};

/** Books the first free time of the default call type through the public form's own endpoint; its start. */
async function bookFirstFreeTime(page: Page, name: string): Promise<string> {
  const picker = await (await page.request.get("/book")).text();
  const slot = /[?&;]slot=([^"&]+)/.exec(picker)?.[1];
  if (!slot) throw new Error("no free time on /book");
  const start = decodeURIComponent(slot);
  const form = await (await page.request.get(`/book?slot=${encodeURIComponent(start)}`)).text();
  const callType = /name="callType" value="([^"]+)"/.exec(form)?.[1];
  if (!callType) throw new Error("no booking form");
  const response = await page.request.post("/book", {
    form: { callType, start, name, email: `calendar-${Date.now()}@example.com`, verificationToken: await solveVerification(page.request) },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  return start;
}

test("the owner's month calendar shows a booked call on its day; months and the call are reached by keyboard", async ({ page }) => {
  const name = `Calendar Visitor ${Date.now()}`;
  const start = await bookFirstFreeTime(page, name);
  const month = start.slice(0, 7);

  await loginAs(page, E2E_ADMIN);
  await page.goto(`/admin/bookings?month=${month}`);
  const calendar = page.getByRole("region", { name: `Calendar: ${monthName(start)}` });
  await expect(calendar).toBeVisible();
  const table = calendar.getByRole("table", { name: /^Bookings in .*, times in UTC$/ });
  await expect(table.getByRole("columnheader")).toHaveText(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
  // The call sits in its day's cell, at its time in the site's zone.
  const day = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(start));
  const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(new Date(start));
  const calls = table.getByRole("list", { name: `Calls on ${day}` });
  await expect(calls.getByRole("listitem").filter({ hasText: name })).toContainText(`${time} ${name}`);
  await expectNoSeriousAxeViolations(page);

  // Keyboard: from the call to its card below (with the cancel form).
  const entry = calls.getByRole("link", { name: new RegExp(name) });
  await entry.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#booking-[0-9a-f-]{36}$/);
  const card = page.locator(`li${new URL(page.url()).hash}`);
  await expect(card).toContainText(name);
  await expect(card).toBeInViewport();

  // Keyboard: the next month, then back to this month; Tab moves through the month links in order.
  const months = page.getByRole("navigation", { name: "Months" });
  await months.getByRole("link", { name: /→$/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`\\?month=${nextMonth(month)}#calendar$`));
  await expect(page.getByRole("heading", { name: `Calendar: ${monthName(`${nextMonth(month)}-01T00:00:00Z`)}` })).toBeVisible();
  await expect(
    page.getByRole("table", { name: `Bookings in ${monthName(`${nextMonth(month)}-01T00:00:00Z`)}, times in UTC` }),
  ).toBeVisible();
  await months.getByRole("link", { name: /^←/ }).focus();
  await page.keyboard.press("Tab");
  await expect(months.getByRole("link", { name: "This month" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/bookings\?#calendar$|\/admin\/bookings#calendar$/);
  await expect(page.getByRole("heading", { name: `Calendar: ${monthName(new Date().toISOString())}` })).toBeVisible();
});

test("the owner connects a CalDAV calendar: the password is never shown back, a failed read pauses booking until it is removed", async ({
  page,
}) => {
  const password = `caldav-${Date.now()}-secret`;
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/admin/bookings");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add CalDAV calendar" }) });
  await form.getByLabel("Calendar name").fill("Work (CalDAV)");
  // The e2e server refuses local addresses (no OUTBOUND_ALLOW_PRIVATE): the first read fails, by name.
  await form.getByLabel("CalDAV calendar address").fill("http://127.0.0.1:1/owner/work/");
  await form.getByLabel("User name").fill("owner");
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Add CalDAV calendar" }).click();
  await expect(toastWith(page, "Calendar added")).toBeVisible();

  const row = page.getByTestId("calendar-feed").filter({ hasText: "Work (CalDAV)" });
  await expect(row).toContainText("CalDAV, user owner, http://127.0.0.1:1/…");
  await expect(row.getByTestId("calendar-feed-error")).toContainText("Last attempt failed: address not allowed");
  await expect(form.getByLabel("Password")).toHaveValue("");
  expect(await page.content()).not.toContain(password);
  await expectNoSeriousAxeViolations(page);

  // Fail closed: never read, so visitors are sent to the contact form rather than offered a time.
  const book = await (await page.request.get("/book")).text();
  expect(book).toContain("Booking is paused; please use the");

  await row.getByRole("button", { name: "Remove Work (CalDAV)" }).click();
  await expect(toastWith(page, "Calendar removed")).toBeVisible();
  await expect(page.getByTestId("calendar-feed").filter({ hasText: "Work (CalDAV)" })).toHaveCount(0);
  expect(await (await page.request.get("/book")).text()).not.toContain("Booking is paused");
});
