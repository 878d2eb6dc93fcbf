import { parseMail } from "../helpers/smtp";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { withOwnServer } from "./helpers/own-server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

// /contact ships no React to anonymous visitors. The form's markup is drawn by React on the
// server and its behaviour (app/features/contact/contact-form-behavior.ts) is loaded by the page's
// enhancement script; signed-in staff get React and the same behaviour.

const OWNER = "owner@contact-islands.example";

/** The page's scripts by address, recorded from the first request on (the widget's blob: workers aside). */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" && request.url().startsWith("http")) scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const verification = (page: Page) => page.getByRole("checkbox", { name: "I'm not a robot" });

test.describe("anonymous /contact without React", () => {
  test.describe.configure({ timeout: 150_000 });
  // A server of its own that emails contact messages (CONTACT_TO) to its own SMTP catcher.
  const own = withOwnServer("e2e-contact-islands-", (smtp) => ({ SMTP_URL: smtp.url, CONTACT_TO: OWNER, CONTACT_POLL_MS: "200" }));

  test("no vendor chunk; validation, verification, a keyboard-only send, the thank-you dialog, the email", async ({ page }) => {
    const scripts = recordScripts(page);
    const unique = `islands ${Date.now()} ${Math.random().toString(36).slice(2)}`;
    await gotoHydrated(page, `${own.server.url}/contact`);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    expect(scripts.filter((script) => /vendor|entry\.client|manifest-/.test(script))).toEqual([]);
    expect(scripts.some((script) => /^\/assets\/enhance-contact-form-behavior-[\w-]+\.js$/.test(script))).toBe(true);

    // Send stays disabled until verified; the server-rendered button was enabled (the plain post).
    const submit = page.getByRole("button", { name: "Send Message" });
    await expect(submit).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    // Everything by keyboard: fields, the widget, Send.
    await field(page, "Name").focus();
    await page.keyboard.press("Tab");
    await expect(field(page, "Email")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(field(page, "Message")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(verification(page)).toBeFocused();
    await page.keyboard.press("Space");
    await expect(submit).toBeEnabled({ timeout: 45_000 });
    await submit.focus();
    await page.keyboard.press("Enter");

    // Checked on submit with the shared schema's messages; the first wrong field gets focus.
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByText("Message is required")).toBeVisible();
    await expect(field(page, "Name")).toBeFocused();
    await expect(field(page, "Email")).toHaveAttribute("aria-describedby", "contact-email-error");
    await expectNoSeriousAxeViolations(page);
    // Re-checked on change.
    await page.keyboard.type("x".repeat(101));
    await expect(page.getByText("Name must be less than 100 characters")).toBeVisible();
    await field(page, "Name").fill("");
    await page.keyboard.type("Ada King Lovelace");
    await expect(page.getByRole("alert").filter({ hasText: /^Name/ })).toHaveCount(0);
    await expect(field(page, "Name")).not.toHaveAttribute("aria-invalid");
    await page.keyboard.press("Tab");
    await page.keyboard.type("ada@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type(`Hello from ${unique}`);
    await expect(page.getByRole("alert").filter({ hasText: /required|Invalid|less than/ })).toHaveCount(0);

    await page.route("**/api/send-contact-email", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await submit.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();

    // The thank-you dialog: modal, greeting by the first word of the name, focus inside, Escape closes.
    const dialog = page.getByRole("dialog", { name: "Thank you, Ada!" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Your message has been sent. I'll get back to you within 24-48 hours on business days.");
    const [close, closeIcon] = [
      dialog.getByRole("button", { name: "Close" }).first(),
      dialog.getByRole("button", { name: "Close" }).last(),
    ];
    await expect(close).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(closeIcon).toBeFocused();
    await expectNoSeriousAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(field(page, "Name")).toBeFocused();
    // Reset: empty fields, a fresh verification needed.
    await expect(field(page, "Name")).toHaveValue("");
    await expect(field(page, "Email")).toHaveValue("");
    await expect(field(page, "Message")).toHaveValue("");
    await expect(verification(page)).not.toBeChecked();
    await expect(submit).toBeDisabled();

    // The message was emailed to the owner.
    await expect
      .poll(() => own.smtp.received.map((mail) => parseMail(mail)).find((mail) => mail.text.includes(unique))?.to, { timeout: 30_000 })
      .toEqual([OWNER]);
  });

  test("a failed send: the form stays filled and a toast is announced", async ({ page }) => {
    await page.route("**/api/send-contact-email", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Something went wrong." }) }),
    );
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await gotoHydrated(page, `${own.server.url}/contact`);
    await field(page, "Name").fill("Grace Hopper");
    await field(page, "Email").fill("grace@example.com");
    await field(page, "Message").fill("This one will fail");
    const submit = page.getByRole("button", { name: "Send Message" });
    await verification(page).click();
    await expect(submit).toBeEnabled({ timeout: 45_000 });
    await submit.click();

    const region = page.getByRole("region", { name: "Notifications" });
    await expect(region).toHaveAttribute("aria-live", "polite");
    const toast = toastWith(
      page,
      "Error sending message",
      "There was a problem sending your message. Please try again or email me directly.",
    );
    await expect(region.locator(toast)).toBeVisible();
    // Pointed at, it stays (it goes after 4 s otherwise) while the rest is checked.
    await toast.hover();
    await expect(field(page, "Name")).toHaveValue("Grace Hopper");
    await expect(field(page, "Message")).toHaveValue("This one will fail");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(verification(page)).not.toBeChecked();
    await expect(submit).toBeDisabled();
    expect(errors.some((error) => error.includes("contact message could not be sent"))).toBe(true);
    await expectNoSeriousAxeViolations(page);
    // The toast can be dismissed.
    await toast.getByRole("button", { name: "Close toast" }).click();
    await expect(toast).toHaveCount(0);
  });
});

test("signed-in staff get React on /contact and the same form behaviour", async ({ page }) => {
  test.setTimeout(150_000);
  const scripts = recordScripts(page);
  await loginAs(page, E2E_ADMIN);
  await page.route("**/api/send-contact-email", (route) =>
    route.fulfill({
      status: 403,
      contentType: "application/json",
      body: JSON.stringify({ error: "Please complete the security verification." }),
    }),
  );
  await gotoHydrated(page, "/contact");
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
  expect(scripts.some((script) => /vendor/.test(script))).toBe(true);

  const submit = page.getByRole("button", { name: "Send Message" });
  await expect(submit).toBeDisabled();
  await verification(page).click();
  await expect(submit).toBeEnabled({ timeout: 45_000 });
  await submit.click();
  await expect(page.getByText("Message is required")).toBeVisible();
  await expect(field(page, "Name")).toBeFocused();
  await field(page, "Name").fill("Alan Turing");
  await field(page, "Email").fill("alan@example.com");
  await field(page, "Message").fill("Token will be refused");
  await expect(page.getByText("Message is required")).toBeHidden();
  await submit.click();
  await expect(toastWith(page, "Verification required", "Please complete the security verification.")).toBeVisible();
  await expect(field(page, "Message")).toHaveValue("Token will be refused");
  await expect(submit).toBeDisabled();
});
