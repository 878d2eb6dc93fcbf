import { parseInvite } from "../helpers/invite";
import { expect, test, type Page } from "./helpers/test";
import { waitForMail } from "./helpers/mailbox";
import { expectNoSeriousAxeViolations } from "./helpers/ui";
import { loginAs } from "./helpers/auth";
import { E2E_ADMIN } from "./constants";

// The visitor is in Los Angeles; the site's zone is the server's (UTC here).
test.use({ timezoneId: "America/Los_Angeles" });
// Proof of work and three rounds of email on a loaded machine.
test.setTimeout(480_000);

/** A multipart email body's part of this type, decoded (quoted-printable or base64). */
function mimePart(body: string, type: string): string {
  const match = new RegExp(`Content-Type: ${type}[^]*?\\r?\\n\\r?\\n([^]*?)\\r?\\n--`, "i").exec(body);
  if (!match) throw new Error(`no ${type} part`);
  const headers = body.slice(match.index, match.index + match[0].length - (match[1]?.length ?? 0));
  const content = match[1] ?? "";
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    return content.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return content;
}

function inviteOf(body: string) {
  const invite = parseInvite(mimePart(body, "text/calendar"));
  return { ...invite, start: new Date(invite.start).toISOString() };
}

async function pickFirstTime(page: Page) {
  const slot = page
    .getByRole("region", { name: /Pick a time/ })
    .getByRole("link")
    .first();
  const start = await slot.locator("time").getAttribute("datetime");
  await slot.click();
  return start ?? "";
}

test("a visitor in another zone books, reschedules and cancels a call by the emailed link; the owner sees each state", async ({
  page,
  browser,
}) => {
  const email = `visitor-${Date.now()}@example.com`;
  const since = Date.now();
  await page.goto("/book");
  // The page shows the visitor's own zone (detected in the browser), still changeable.
  await expect(page).toHaveURL(/tz=America%2FLos_Angeles/);
  await expect(page.getByLabel("Times shown in")).toHaveValue("America/Los_Angeles");
  await expectNoSeriousAxeViolations(page);

  const start = await pickFirstTime(page);
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
  const form = page.getByRole("form", { name: "Your details" });
  await form.getByLabel("Name", { exact: true }).fill("Grace Visitor");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Company (optional)").fill("Analytical Engines");
  await form.getByTestId("human-verification").getByRole("checkbox").click();
  await expect(page.locator('input[name="verificationToken"]')).not.toHaveValue("", { timeout: 90_000 });
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Book this call" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();
  await expect(page.getByText("(America/Los Angeles)")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download .ics" })).toHaveAttribute("href", /\/book\/ics\//);

  const confirmation = await waitForMail(email, since);
  const invite = inviteOf(confirmation.text);
  expect(invite).toMatchObject({ method: "REQUEST", sequence: 0, start });
  const ownerMail = await waitForMail("no-reply@localhost", since);
  expect(inviteOf(ownerMail.text).uid).toBe(invite.uid);
  const manage = /Cancel or reschedule: (http\S+)/.exec(mimePart(confirmation.text, "text/plain"))?.[1];
  if (!manage) throw new Error("no manage link in the email");

  // Reschedule through the emailed link.
  const beforeReschedule = Date.now();
  await page.goto(manage);
  await expect(page.getByRole("heading", { name: "Cancel or reschedule" })).toBeVisible();
  const days = page.getByRole("navigation", { name: "Days with free times" }).getByRole("link");
  await days.nth(1).click();
  const newStart = await pickFirstTime(page);
  await page.getByRole("button", { name: "Reschedule to this time" }).click();
  await expect(page.getByText("Confirmed (rescheduled)")).toBeVisible();
  const moved = inviteOf((await waitForMail(email, beforeReschedule)).text);
  expect(moved).toMatchObject({ method: "REQUEST", uid: invite.uid, sequence: 1, start: newStart });

  // The owner sees it in the admin.
  const admin = await browser.newPage();
  await loginAs(admin, E2E_ADMIN);
  await admin.goto("/admin/bookings");
  const row = admin.getByTestId("booking-row").filter({ hasText: email });
  await expect(row.getByTestId("booking-status")).toHaveText("Confirmed (rescheduled)");

  // Cancel through the same link.
  const beforeCancel = Date.now();
  await page.goto(manage);
  await page.getByRole("button", { name: "Cancel this call" }).click();
  await expect(page.getByRole("heading", { name: "This call was cancelled" })).toBeVisible();
  const cancelled = inviteOf((await waitForMail(email, beforeCancel)).text);
  expect(cancelled).toMatchObject({ method: "CANCEL", uid: invite.uid, sequence: 2 });
  await admin.reload();
  await expect(row.getByTestId("booking-status")).toHaveText("Cancelled by visitor");
  // The link no longer changes anything.
  await page.goto(manage);
  await expect(page.getByText("This call can no longer be changed here.")).toBeVisible();
  await admin.close();
});
