import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactMessages, jobs } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { makeContactMessage, makePost } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** /healthz, /readyz and /metrics through the production build. The build reads its configuration once. */
const TOKEN = "metrics-token-0123456789abcdef";
process.env.METRICS_TOKEN = TOKEN;
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The value of one sample line (`name{labels} value`) in a Prometheus text exposition. */
function sample(body: string, name: string, labels: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describeEachDatabase("operations endpoints", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("/healthz says the process is alive without asking the database", async () => {
    const response = await server.fetch("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("/readyz is ready when migrations ran and database and storage answer; 503 while a migration is missing", async () => {
    const ready = await server.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", database: "ok", migrations: "ok", storage: "ok" });

    // Pretend the newest migration has not run: negate its timestamp, and restore it afterwards.
    const newest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
    await ctx.db.execute(sql`update drizzle.__drizzle_migrations set created_at = -created_at where created_at = ${newest}`);
    try {
      const pending = await server.fetch("/readyz");
      expect(pending.status).toBe(503);
      expect(await pending.json()).toMatchObject({ status: "unavailable", migrations: "pending", database: "ok" });
    } finally {
      await ctx.db.execute(sql`update drizzle.__drizzle_migrations set created_at = -created_at where created_at < 0`);
    }
    expect((await server.fetch("/readyz")).status).toBe(200);
  });

  it("/metrics is 404 without the bearer token or with a wrong one", async () => {
    expect((await server.fetch("/metrics")).status).toBe(404);
    expect((await server.fetch("/metrics", bearer("wrong-token-0123456789abcdef"))).status).toBe(404);
    expect((await server.fetch("/metrics", { headers: { authorization: TOKEN } })).status).toBe(404);
  });

  it("/metrics counts requests by route pattern, not by URL, and reports queues from the database", async () => {
    const route = 'route="/7fs/:category/:slug"';
    // Counters belong to the process, which serves both database runs of this file: compare before/after.
    const counts = async () => {
      const body = await (await server.fetch("/metrics", bearer(TOKEN))).text();
      return [200, 404].map((status) => sample(body, "http_requests_total", `${route},status="${status}"`) ?? 0);
    };
    const [ok0 = 0, missing0 = 0] = await counts();
    const post = await makePost(ctx.db, { category: "Faith" });
    for (let i = 0; i < 3; i++) expect((await server.fetch(`/7fs/Faith/${post.slug}`)).status).toBe(200);
    expect((await server.fetch("/7fs/Faith/no-such-post-here")).status).toBe(404);

    const failed = await ctx.db
      .insert(jobs)
      .values([
        { kind: "test.metrics", state: "failed", attempts: 5 },
        { kind: "test.metrics", state: "pending", runAt: sql`now() - interval '90 seconds'` },
      ])
      .returning({ id: jobs.id });
    const message = await makeContactMessage(ctx.db, { delivery: { state: "failed" } });
    try {
      const response = await server.fetch("/metrics", bearer(TOKEN));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const body = await response.text();
      expect(sample(body, "http_requests_total", `${route},status="200"`)).toBe(ok0 + 3);
      expect(sample(body, "http_requests_total", `${route},status="404"`)).toBe(missing0 + 1);
      expect(sample(body, "http_request_duration_seconds_count", `${route},status="200"`)).toBe(ok0 + 3);
      expect(body).not.toContain(post.slug);
      expect(sample(body, "app_jobs", 'state="failed"')).toBeGreaterThanOrEqual(1);
      expect(sample(body, "app_mail_outbox_messages", 'state="failed"')).toBeGreaterThanOrEqual(1);
      expect(sample(body, "app_scheduler_lag_seconds", 'queue="jobs"')).toBeGreaterThanOrEqual(89);
      expect(body).toMatch(/^page_cache_lookups_total\{result="hit"\} \d+$/m);
      expect(body).toMatch(/^page_cache_hit_ratio \d/m);
      expect(body).toContain("process_resident_memory_bytes");
    } finally {
      await ctx.db.delete(jobs).where(
        inArray(
          jobs.id,
          failed.map((j) => j.id),
        ),
      );
      await ctx.db.delete(contactMessages).where(eq(contactMessages.id, message.id));
    }
  });
});
