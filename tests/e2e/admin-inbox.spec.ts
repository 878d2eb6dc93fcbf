import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { adminSidebar, expectNoSeriousAxeViolations } from "./helpers/ui";

const TIME_ZONE = "Asia/Kolkata";
test.use({ timezoneId: TIME_ZONE });

async function sendMessage(page: Page, message: string, email = "reader@example.net") {
  const sent = await page.request.post("/api/send-contact-email", {
    data: { name: "Inbox Reader", email, message, turnstileToken: await solveVerification(page.request) },
  });
  expect(sent.status()).toBe(201);
}

/** The unread count the sidebar shows beside Messages (0 without a badge). */
async function unreadCount(page: Page): Promise<number> {
  const sidebar = await adminSidebar(page);
  const link = sidebar.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: /^Messages/ });
  const text = (await link.textContent()) ?? "";
  const count = /(\d+) unread/.exec(text)?.[1];
  if ((page.viewportSize()?.width ?? 1280) < 768) await page.keyboard.press("Escape");
  return count ? Number(count) : 0;
}

test("inbox: unread count in the sidebar, clickable rows, times in the viewer's zone, Reply by email", async ({ page }) => {
  const hydrationErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat/i.test(message.text())) hydrationErrors.push(message.text());
  });
  const unique = `inbox-${Date.now()}-${test.info().project.name}`;
  await sendMessage(page, `Hello ${unique}`, `${unique}@example.net`);
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/messages");
  const before = await unreadCount(page);
  expect(before).toBeGreaterThanOrEqual(1);

  const item = page.getByTestId("contact-message").filter({ hasText: unique });
  // The row acts as a button: clicking anywhere on it (here its time) opens the message.
  const time = item.locator("summary time");
  await expect(time).toHaveAttribute("data-local", "");
  const iso = await time.getAttribute("datetime");
  const expected = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE }).format(
    new Date(iso!),
  );
  await expect(time).toHaveText(expected);
  await expect(item.getByText(`Hello ${unique}`)).toBeHidden();
  await time.click();
  await expect(item.getByText(`Hello ${unique}`)).toBeVisible();

  const reply = item.getByRole("link", { name: "Reply by email" });
  const href = (await reply.getAttribute("href")) ?? "";
  expect(href.startsWith(`mailto:${unique}@example.net?subject=`)).toBe(true);
  expect(decodeURIComponent(href.split("subject=")[1] ?? "")).toMatch(/^Re: your message to \S.*/);
  await expectNoSeriousAxeViolations(page);

  await item.getByRole("button", { name: "Mark handled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked as handled." })).toBeVisible();
  await expect.poll(() => unreadCount(page)).toBe(before - 1);
  expect(hydrationErrors).toEqual([]);
});
