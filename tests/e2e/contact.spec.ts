import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN, E2E_MODERATOR } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { adminSidebar, expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

async function verifyHuman(page: Page) {
  await page.getByRole("checkbox", { name: "I'm not a robot" }).click();
  // Proof of work: slow on a loaded machine.
  await expect(page.getByRole("button", { name: "Send Message" })).toBeEnabled({ timeout: 45_000 });
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test("contact page: validation messages, verification gate, successful send with the thank-you dialog", async ({ page }) => {
  const unique = `e2e ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Let's Connect" })).toBeVisible();
  await expect(page.getByText("Response time: 24-48 hours on business days")).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Contact details" }).getByRole("link")).toHaveAttribute("href", /^mailto:/);

  // Verification gate: no submit until verification has passed.
  const submit = page.getByRole("button", { name: "Send Message" });
  await expect(submit).toBeDisabled();
  await expectNoSeriousAxeViolations(page);
  await verifyHuman(page);

  await submit.click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByText("Message is required")).toBeVisible();
  await expect(field(page, "Name")).toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "Name")).toHaveAttribute("aria-describedby", "contact-name-error");
  await expect(field(page, "Name")).toBeFocused();
  await expectNoSeriousAxeViolations(page);

  // Re-checked on change after the first submit.
  await field(page, "Name").fill("x".repeat(101));
  await expect(page.getByText("Name must be less than 100 characters")).toBeVisible();
  await field(page, "Email").fill(`${"a".repeat(250)}@example.com`);
  await expect(page.getByText("Email must be less than 255 characters")).toBeVisible();
  await field(page, "Message").fill("m".repeat(1001));
  await expect(page.getByText("Message must be less than 1000 characters")).toBeVisible();
  await field(page, "Name").fill("   ");
  await expect(page.getByText("Name is required")).toBeVisible();

  await field(page, "Name").fill("Ada Lovelace");
  await field(page, "Email").fill("ada@example.com");
  await field(page, "Message").fill(`Hello from ${unique}`);
  await expect(page.getByRole("alert").filter({ hasText: /required|Invalid|less than/ })).toHaveCount(0);
  await expect(field(page, "Name")).not.toHaveAttribute("aria-invalid", "true");

  // Hold the request a moment so the sending state can be seen.
  await page.route("**/api/send-contact-email", async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await submit.click();
  await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
  const dialog = page.getByRole("dialog", { name: "Thank you, Ada!" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("24-48 hours on business days");
  await expectNoSeriousAxeViolations(page);
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();
  await expect(field(page, "Name")).toHaveValue("");
  await expect(field(page, "Message")).toHaveValue("");
  // The widget was reset: a new verification is needed for the next message.
  await expect(page.getByRole("checkbox", { name: "I'm not a robot" })).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Send Message" })).toBeDisabled();
});

test("a failed send keeps the form filled, shows the error toast and resets verification", async ({ page }) => {
  await page.route("**/api/send-contact-email", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ error: "Something went wrong on our side. Please try again." }),
    }),
  );
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto("/contact");
  await field(page, "Name").fill("Grace Hopper");
  await field(page, "Email").fill("grace@example.com");
  await field(page, "Message").fill("This one will fail");
  await verifyHuman(page);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Error sending message")).toBeVisible();
  await expect(page.getByText("There was a problem sending your message. Please try again or email me directly.")).toBeVisible();
  await expect(field(page, "Name")).toHaveValue("Grace Hopper");
  await expect(field(page, "Email")).toHaveValue("grace@example.com");
  await expect(field(page, "Message")).toHaveValue("This one will fail");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "I'm not a robot" })).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Send Message" })).toBeDisabled();
  expect(errors.some((e) => e.includes("contact message could not be sent"))).toBe(true);
});

test("without JavaScript the form posts to the server and shows its field errors", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/contact");
  await field(page, "Name").fill("No Script");
  await field(page, "Email").fill("not-an-address");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByText("Message is required")).toBeVisible();
  await expect(field(page, "Name")).toHaveValue("No Script");
  await expect(field(page, "Email")).toHaveAttribute("aria-invalid", "true");
  await field(page, "Email").fill("noscript@example.com");
  await field(page, "Message").fill("Hello without scripts");
  await page.getByRole("button", { name: "Send Message" }).click();
  // The security check needs JavaScript; the visitor is told, and nothing is lost from the form.
  await expect(page.getByText("Verification required", { exact: true })).toBeVisible();
  await expect(page.getByText("Please complete the security verification.")).toBeVisible();
  await expect(field(page, "Message")).toHaveValue("Hello without scripts");
  await context.close();
});

test("staff inbox: mark handled, retry delivery, delete with confirmation", async ({ page }) => {
  const unique = `inbox ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  const sent = await page.request.post("/api/send-contact-email", {
    data: { name: "Inbox Tester", email: "inbox@example.com", message: unique, turnstileToken: await solveVerification(page.request) },
  });
  expect(sent.status()).toBe(201);

  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/messages");
  const item = page.getByTestId("contact-message").filter({ hasText: unique });
  await item.locator("summary").click();
  await item.getByRole("button", { name: "Mark handled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked as handled." })).toBeVisible();
  await expect(item.locator("summary")).toContainText("Handled");
  // The outbox may already have delivered it to the SMTP stand-in: the button then offers to send it again.
  await item.getByRole("button", { name: /^(Retry delivery now|Send email again)$/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Queued for delivery now." })).toBeVisible();

  await item.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this message?" });
  await expect(confirm).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(item).toHaveCount(1);
  await item.getByRole("button", { name: "Delete" }).click();
  await confirm.getByRole("button", { name: "Delete message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Message deleted." })).toBeVisible();
  await expect(item).toHaveCount(0);
});

test("a refused verification (expired or used token) asks for a new one and keeps the form filled", async ({ page }) => {
  await page.route("**/api/send-contact-email", (route) =>
    route.fulfill({
      status: 403,
      contentType: "application/json",
      body: JSON.stringify({ error: "Please complete the security verification." }),
    }),
  );
  await page.goto("/contact");
  await field(page, "Name").fill("Alan Turing");
  await field(page, "Email").fill("alan@example.com");
  await field(page, "Message").fill("Token will be refused");
  await verifyHuman(page);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(toastWith(page, "Verification required", "Please complete the security verification.")).toBeVisible();
  await expect(field(page, "Message")).toHaveValue("Token will be refused");
  await expect(page.getByRole("checkbox", { name: "I'm not a robot" })).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Send Message" })).toBeDisabled();
});

test("inbox inside the admin shell: a moderator reads messages from the sidebar but may not delete", async ({ page }) => {
  const unique = `moderated ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  const sent = await page.request.post("/api/send-contact-email", {
    data: { name: "Shell Tester", email: "shell@example.com", message: unique, turnstileToken: await solveVerification(page.request) },
  });
  expect(sent.status()).toBe(201);
  const { id } = (await sent.json()) as { id: string };

  await loginAs(page, E2E_MODERATOR);
  await page.goto("/admin");
  const sidebar = await adminSidebar(page);
  await sidebar.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Messages" }).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
  // Nested in the shell: one main landmark, one h1, the shell's sidebar toggle, no page of its own.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(["Messages"]);
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Toggle Sidebar" })).toBeVisible();
  const item = page.getByTestId("contact-message").filter({ hasText: unique });
  await item.locator("summary").click();
  await expect(item.getByText(unique)).toBeVisible();
  await expect(item.getByRole("button", { name: "Delete" })).toHaveCount(0);
  // No horizontal scrolling at any width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoSeriousAxeViolations(page);

  // The server refuses a moderator's delete, whatever the page shows.
  const refused = await page.request.post("/admin/messages", { form: { intent: "delete", id } });
  expect(refused.status()).toBe(403);
  await page.reload();
  await expect(page.getByTestId("contact-message").filter({ hasText: unique })).toHaveCount(1);
});
