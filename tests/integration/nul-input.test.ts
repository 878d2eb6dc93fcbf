import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { blogPosts, contactMessages } from "~/server/db/schema.server";
import { TEXT_NUL_REFUSED } from "~/server/errors.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { contactForm, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

/**
 * PostgreSQL stores no NUL in text. A NUL in an otherwise valid contact message or post title —
 * past every other check, where it would reach the database — is a 400 saying what to remove, never
 * a 500, and nothing is stored.
 */
describeEachDatabase("a NUL byte in valid input", (ctx) => {
  const server = useSignedInServer(ctx, "admin");

  it("the contact API answers 400 and stores nothing", async () => {
    await ctx.db.execute(sql`delete from rate_limits`);
    const count = async () => (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n;
    const before = await count();
    const form = contactForm({ message: `Hello\u0000there ${unique()}` });
    const response = await server.fetch("/api/send-contact-email", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ ...form, turnstileToken: await easyVerificationToken(ctx.db) }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("NUL");
    expect(await count()).toBe(before);
  });

  it("a post title answers 400 with the reason and creates no post", async () => {
    const title = `Nul\u0000title ${unique()}`;
    const response = await server.postForm("/7fs/Fun/new", { title, content: "Body.", published: "on" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(TEXT_NUL_REFUSED.slice(0, 30));
    const like = `Nul%${title.slice(-8)}`;
    expect(
      await ctx.db
        .select({ id: blogPosts.id })
        .from(blogPosts)
        .where(sql`${blogPosts.title} like ${like}`),
    ).toHaveLength(0);
  });
});
