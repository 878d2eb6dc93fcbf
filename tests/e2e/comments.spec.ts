import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { linkIn, waitForMail } from "./helpers/mailbox";
import { adminSidebar, expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";
import { COMMENT_TEXTS } from "~/features/comments/comment-schema";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
// Toasts are the root layout's; one caught mid-animation fails contrast.
const expectAccessible = (page: Page) => expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

/** Publishes a post through the editor's own form post (as the signed-in admin) and answers its path. */
async function publishPost(page: Page, title: string): Promise<string> {
  const response = await page.request.post("/7fs/Fun/new", {
    form: { title, content: "A post to comment on.", excerpt: `Excerpt of ${title}`, published: "on", media: "[]" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return `/7fs/Fun/${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

/** A visitor whose browser runs no JavaScript: the comment form is a plain form post. */
async function visitorWithoutScripts(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  return context.newPage();
}

/**
 * Fills the comment form and posts it. With `proofOfWork` the reader's browser (with scripts) solves
 * the security check first; without it (no JavaScript) the comment always waits for moderation.
 */
async function sendComment(page: Page, comment: { name: string; email: string; body: string }, { proofOfWork = false } = {}) {
  const form = page.locator("#comment-form");
  await form.getByLabel("Comment", { exact: true }).fill(comment.body);
  await form.getByLabel("Name", { exact: true }).fill(comment.name);
  await form.getByLabel("Email", { exact: true }).fill(comment.email);
  if (proofOfWork) {
    // The proof of work mounts when the reader first reaches the form.
    await form.getByRole("checkbox", { name: "I'm not a robot" }).click();
    await expect(form.locator('input[name="verificationToken"]')).not.toHaveValue("", { timeout: 90_000 });
  }
  await form.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Comment sent" })).toBeVisible();
  if (!proofOfWork) await expect(page.getByText(COMMENT_TEXTS.held)).toBeVisible();
}

/** Approves a waiting comment in admin → Comments, found by its text. */
async function approve(admin: Page, body: string) {
  await admin.goto("/admin/comments");
  await expect(admin.getByRole("link", { name: /^Pending/, exact: false })).toHaveAttribute("aria-current", "page");
  const item = admin.getByTestId("moderated-comment").filter({ hasText: body });
  await expect(item).toHaveCount(1);
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByTestId("moderated-comment").filter({ hasText: body })).toHaveCount(0);
}

test("a comment sent without JavaScript waits for moderation, is approved in admin and shows on the post with a reply and the author's answer", async ({
  page,
  browser,
}) => {
  test.slow();
  const id = unique();
  const title = `E2E Comments ${id}`;
  await loginAs(page, E2E_ADMIN);
  const path = await publishPost(page, title);

  const visitor = await visitorWithoutScripts(browser);
  await visitor.goto(path);
  await expect(visitor.getByRole("heading", { level: 2, name: "Comments" })).toBeVisible();
  await expect(visitor.getByText("No comments yet. Be the first to share your thoughts.")).toBeVisible();
  await expect(visitor.getByText("New comments appear once they are approved.")).toBeVisible();

  const first = { name: `Grace ${id}`, email: `grace-${id}@readers.example`, body: `Lovely post, thank you ${id}` };
  await sendComment(visitor, first);
  // Waiting: the (cached) post page does not show it yet.
  await visitor.goto(path);
  await expect(visitor.getByText(first.body)).toHaveCount(0);
  await expect(visitor.getByText("No comments yet. Be the first to share your thoughts.")).toBeVisible();

  // The owner finds it through the sidebar's "Comments" entry and approves it.
  await page.goto("/admin");
  await (await adminSidebar(page)).getByRole("link", { name: /^Comments/ }).click();
  await expect(page).toHaveURL(/\/admin\/comments$/);
  await expect(page.getByTestId("moderated-comment").filter({ hasText: first.body })).toBeVisible();
  await expectAccessible(page);
  await approve(page, first.body);

  await visitor.goto(path);
  await expect(visitor.getByRole("heading", { level: 2, name: "1 comment" })).toBeVisible();
  const grace = visitor.getByRole("article", { name: first.name });
  await expect(grace).toContainText(first.body);
  await expect(grace.getByText(COMMENT_TEXTS.author)).toHaveCount(0);

  // A reply, still without JavaScript: the reply link opens a page with the form.
  await grace.getByRole("link", { name: `Reply to ${first.name}` }).click();
  await expect(visitor.getByRole("heading", { level: 1, name: `Reply on “${title}”` })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: `Reply to ${first.name}` })).toBeVisible();
  const reply = { name: `Alan ${id}`, email: `alan-${id}@readers.example`, body: `I agree with Grace ${id}` };
  await sendComment(visitor, reply);
  await approve(page, reply.body);

  // The author answers from the queue; a staff comment is published at once and marked "Author".
  await page.goto("/admin/comments?queue=approved");
  const approved = page.getByTestId("moderated-comment").filter({ hasText: first.body });
  await approved.getByText("Reply as the author").click();
  const answer = `Thank you both ${id}`;
  await approved.getByLabel("Your reply").fill(answer);
  await approved.getByRole("button", { name: "Publish reply" }).click();
  await expect(page.getByText("Reply published.").first()).toBeVisible();

  await visitor.goto(path);
  await expect(visitor.getByRole("heading", { level: 2, name: "3 comments" })).toBeVisible();
  const replies = visitor.getByRole("list", { name: `Replies to ${first.name}` });
  await expect(replies.getByRole("article", { name: reply.name })).toContainText(reply.body);
  const staff = replies.getByRole("article").filter({ hasText: answer });
  await expect(staff).toHaveCount(1);
  await expect(staff.getByText(COMMENT_TEXTS.author, { exact: true })).toBeVisible();
  await visitor.context().close();

  // The same page with scripts, for the accessibility check.
  await page.context().clearCookies();
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 2, name: "3 comments" })).toBeVisible();
  await expectAccessible(page);
});

test("a reader comments under an owner's page, confirms their email by the mailed link, the owner auto-approves them: their next comment is published at once", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const id = unique();
  const title = `Talks ${id}`;
  const address = `talks-${id}`;
  await loginAs(page, E2E_ADMIN);
  const created = await page.request.post("/admin/pages/new", {
    form: {
      intent: "save",
      title,
      address: `/${address}`,
      content: "Where I speak this year.",
      metaTitle: "",
      metaDescription: "",
      published: "on",
      commentsEnabled: "on",
    },
    maxRedirects: 0,
  });
  expect(created.status(), await created.text()).toBe(302);

  const reader = await browser.newContext({ baseURL });
  // Opened first: its form's time stamp is old by the time the reader writes again (no "sent within seconds" hold).
  const later = await reader.newPage();
  await gotoHydrated(later, `/${address}`);
  const tab = await reader.newPage();
  await gotoHydrated(tab, `/${address}`);
  await expect(tab.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(tab.getByRole("heading", { level: 2, name: "Comments" })).toBeVisible();
  await expectAccessible(tab);

  const person = { name: `Ada ${id}`, email: `ada-${id}@readers.example`, body: `Which talk comes first? ${id}` };
  const since = Date.now();
  await sendComment(tab, person, { proofOfWork: true });
  await expect(tab.getByText(COMMENT_TEXTS.held)).toBeVisible();
  await expect(tab.getByText(COMMENT_TEXTS.confirmationMailed)).toBeVisible();

  // The link in the email asks first (a mail scanner opening it confirms nothing), then confirms, once.
  const mail = await waitForMail(person.email, since, 60_000);
  expect(mail.subject).toMatch(/^Confirm your email for comments on /);
  const link = linkIn(mail.text, "/comments/confirm?token=");
  await tab.goto(link);
  await expect(tab.getByRole("heading", { level: 1, name: "Confirm your email" })).toBeVisible();
  await expectAccessible(tab);
  await tab.getByRole("button", { name: "Confirm your email" }).click();
  await expect(tab.getByRole("status").filter({ hasText: `${person.email} is confirmed` })).toBeVisible();
  await tab.goto(link);
  await tab.getByRole("button", { name: "Confirm your email" }).click();
  await expect(tab.getByRole("alert").filter({ hasText: "This confirmation link is not valid or has expired." })).toBeVisible();

  // The owner sees the confirmed email and auto-approves the person, which publishes the waiting comment.
  await page.goto("/admin/comments");
  const item = page.getByTestId("moderated-comment").filter({ hasText: person.body });
  await expect(item.getByText("Email confirmed")).toBeVisible();
  await expectAccessible(page);
  await item.getByRole("button", { name: "Auto-approve this person" }).click();
  await expect(page.getByText(`Comments from ${person.email} are published without moderation from now on.`).first()).toBeVisible();
  await expect(page.getByTestId("moderated-comment").filter({ hasText: person.body })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Auto-approved people" }).getByText(person.email)).toBeVisible();

  // The next comment is published at once.
  const next = { ...person, body: `And the second one? ${id}` };
  await sendComment(later, next, { proofOfWork: true });
  await expect(later.getByText(COMMENT_TEXTS.published)).toBeVisible();
  await later.goto(`/${address}`);
  await expect(later.getByRole("heading", { level: 2, name: "2 comments" })).toBeVisible();
  await expect(later.getByText(person.body)).toBeVisible();
  await expect(later.getByText(next.body)).toBeVisible();
  await reader.close();

  // The owner can stop it.
  await page
    .getByRole("region", { name: "Auto-approved people" })
    .getByRole("button", { name: `Stop auto-approving ${person.email}` })
    .click();
  await expect(page.getByText(`Comments from ${person.email} wait for moderation again.`).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Auto-approved people" }).getByText(person.email)).toHaveCount(0);
});
