import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactMessages } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, startTestServer, type TestServer } from "../helpers/test-server";

/** Who may use the staff inbox (/admin/messages), checked through real HTTP on the production build. */
type Actor = "anonymous" | "user" | "moderator" | "admin";
type Operation = "list" | "handled" | "retry" | "delete";

const ALLOWED: Record<Operation, Actor[]> = {
  list: ["moderator", "admin"],
  handled: ["moderator", "admin"],
  retry: ["moderator", "admin"],
  delete: ["admin"],
};
const ACTORS: Actor[] = ["anonymous", "user", "moderator", "admin"];
const OPERATIONS: Operation[] = ["list", "handled", "retry", "delete"];

const saved = { ...process.env };
beforeAll(() => {
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("contact inbox authorization", (ctx) => {
  let server: TestServer;
  const cookies: Record<Actor, string> = { anonymous: "", user: "", moderator: "", admin: "" };
  beforeAll(async () => {
    server = await startTestServer();
    await server.fetch("/healthz");
    for (const role of ["user", "moderator", "admin"] as const) cookies[role] = (await signedInAs(ctx.db, role)).cookie;
  });
  afterAll(() => server.close());

  async function seedMessage(tag: string) {
    const [row] = await ctx.db
      .insert(contactMessages)
      .values({ name: `Sender ${tag}`, email: "sender@example.com", message: `Body ${tag}`, deliveryState: "failed", attempts: 3, lastError: "boom" })
      .returning({ id: contactMessages.id });
    if (!row) throw new Error("insert failed");
    return row.id;
  }
  const snapshot = async (id: string) => (await ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id)))[0];

  for (const operation of OPERATIONS) {
    for (const actor of ACTORS) {
      const allowed = ALLOWED[operation].includes(actor);
      it(`${actor} ${allowed ? "may" : "may not"} ${operation}`, async () => {
        const tag = `${operation}-${actor}-${Date.now()}`;
        const id = await seedMessage(tag);
        const before = await snapshot(id);
        const headers: Record<string, string> = { origin: server.url };
        if (cookies[actor]) headers.cookie = cookies[actor];
        const response =
          operation === "list"
            ? await server.fetch("/admin/messages", { headers })
            : await server.fetch("/admin/messages", {
                method: "POST",
                headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
                body: new URLSearchParams({ intent: operation, id }).toString(),
              });
        const after = await snapshot(id);

        if (!allowed) {
          if (actor === "anonymous") {
            expect(response.status).toBe(302);
            expect(response.headers.get("location")).toBe("/auth");
          } else if (actor === "user") {
            expect(response.status).toBe(302);
            expect(response.headers.get("location")).toBe("/");
            expect(response.headers.get("set-cookie")).toMatch(/toast=/);
          } else {
            expect(response.status).toBe(403);
          }
          expect(after).toEqual(before);
          return;
        }
        expect(response.status).toBe(200);
        const html = await response.text();
        if (operation === "list") {
          expect(html).toContain(`Sender ${tag}`);
          expect(html).toContain("Delivery failed");
          expect(html).toContain("boom");
          expect(html.includes(">Delete<")).toBe(actor === "admin");
          expect(after).toEqual(before);
        } else if (operation === "handled") {
          expect(after?.handledAt).toBeInstanceOf(Date);
          expect({ ...after, handledAt: null }).toEqual(before);
        } else if (operation === "retry") {
          expect(after).toMatchObject({ deliveryState: "pending", attempts: 0, lastError: null });
        } else {
          expect(after).toBeUndefined();
        }
      });
    }
  }

  it("answers 400 for a malformed request and 404 for an unknown message", async () => {
    const headers = { origin: server.url, cookie: cookies.admin, "content-type": "application/x-www-form-urlencoded" };
    const bad = await server.fetch("/admin/messages", { method: "POST", headers, body: "intent=explode&id=1" });
    expect(bad.status).toBe(400);
    const missing = await server.fetch("/admin/messages", {
      method: "POST",
      headers,
      body: new URLSearchParams({ intent: "handled", id: "00000000-0000-4000-8000-000000000000" }).toString(),
    });
    expect(missing.status).toBe(404);
  });
});
