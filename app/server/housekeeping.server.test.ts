import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/helpers/databases";
import { makeUser } from "../../tests/helpers/factories";
import { commentAuthors, jobs, rateLimits, session, usedVerificationTokens, verification } from "./db/schema.server";
import { FINISHED_JOB_RETENTION_MS, housekeep, housekeepingTask } from "./housekeeping.server";
import { registeredRecurringTasks } from "./jobs/recurring.server";

describeEachDatabase("housekeeping", (ctx) => {
  it("deletes expired sessions, ended rate-limit windows, expired verifications and used tokens, and old finished jobs — nothing live", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 60_000);
    const future = new Date(now.getTime() + 60 * 60_000);
    const owner = await makeUser(ctx.db);
    const id = () => randomUUID();
    const [oldSession, liveSession] = [id(), id()];
    await ctx.db.insert(session).values([
      { id: oldSession, token: id(), userId: owner.id, expiresAt: past },
      { id: liveSession, token: id(), userId: owner.id, expiresAt: future },
    ]);
    const [oldKey, liveKey] = [`test:${id()}`, `test:${id()}`];
    await ctx.db.insert(rateLimits).values([
      { key: oldKey, count: 9, resetAt: past },
      { key: liveKey, count: 1, resetAt: future },
    ]);
    const [oldVerification, liveVerification] = [id(), id()];
    await ctx.db.insert(verification).values([
      { id: oldVerification, identifier: "password-reset:old", value: owner.id, expiresAt: past },
      { id: liveVerification, identifier: "password-reset:live", value: owner.id, expiresAt: future },
    ]);
    const [oldToken, liveToken] = [id(), id()];
    await ctx.db.insert(usedVerificationTokens).values([
      { tokenHash: oldToken, expiresAt: past },
      { tokenHash: liveToken, expiresAt: future },
    ]);
    const longAgo = new Date(now.getTime() - FINISHED_JOB_RETENTION_MS - 60_000);
    const [oldJob, recentJob, pendingJob] = [id(), id(), id()];
    await ctx.db.insert(jobs).values([
      { id: oldJob, kind: "test.kind", payload: {}, state: "done", finishedAt: longAgo, runAt: longAgo },
      { id: recentJob, kind: "test.kind", payload: {}, state: "failed", finishedAt: past, runAt: past },
      { id: pendingJob, kind: "test.kind", payload: {}, state: "pending", runAt: longAgo },
    ]);

    const result = await housekeep(ctx.db, now);
    expect(result.sessions).toBeGreaterThanOrEqual(1);
    expect(result.jobs).toBeGreaterThanOrEqual(1);

    const ids = async <T>(rows: Promise<T[]>) => (await rows).map((row) => Object.values(row as object)[0]);
    expect(
      await ids(
        ctx.db
          .select({ id: session.id })
          .from(session)
          .where(inArray(session.id, [oldSession, liveSession])),
      ),
    ).toEqual([liveSession]);
    expect(
      await ids(
        ctx.db
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, [oldKey, liveKey])),
      ),
    ).toEqual([liveKey]);
    expect(
      await ids(
        ctx.db
          .select({ id: verification.id })
          .from(verification)
          .where(inArray(verification.id, [oldVerification, liveVerification])),
      ),
    ).toEqual([liveVerification]);
    expect(
      await ids(
        ctx.db
          .select({ h: usedVerificationTokens.tokenHash })
          .from(usedVerificationTokens)
          .where(inArray(usedVerificationTokens.tokenHash, [oldToken, liveToken])),
      ),
    ).toEqual([liveToken]);
    expect(
      (
        await ids(
          ctx.db
            .select({ id: jobs.id })
            .from(jobs)
            .where(inArray(jobs.id, [oldJob, recentJob, pendingJob])),
        )
      ).sort(),
    ).toEqual([recentJob, pendingJob].sort());
  });

  it("sweeps commenters' expired confirmation links: an address never confirmed goes, a confirmed one keeps its row", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 60_000);
    const future = new Date(now.getTime() + 60 * 60_000);
    const email = (name: string) => `${name}-${randomUUID()}@example.com`;
    const [expired, live, confirmed] = [email("expired"), email("live"), email("confirmed")];
    await ctx.db.insert(commentAuthors).values([
      { email: expired, confirmTokenHash: randomUUID(), confirmExpiresAt: past, confirmSentAt: past },
      { email: live, confirmTokenHash: randomUUID(), confirmExpiresAt: future, confirmSentAt: past },
      // A row edited by hand: confirmed, with a dead link left on it.
      { email: confirmed, confirmedAt: past, confirmTokenHash: randomUUID(), confirmExpiresAt: past },
    ]);
    expect((await housekeep(ctx.db, now)).commentConfirmations).toBeGreaterThanOrEqual(2);
    const rows = await ctx.db
      .select({ email: commentAuthors.email, hash: commentAuthors.confirmTokenHash, confirmedAt: commentAuthors.confirmedAt })
      .from(commentAuthors)
      .where(inArray(commentAuthors.email, [expired, live, confirmed]));
    expect(rows.map((row) => row.email).sort()).toEqual([confirmed, live].sort());
    expect(rows.find((row) => row.email === live)?.hash).not.toBeNull();
    expect(rows.find((row) => row.email === confirmed)).toMatchObject({ hash: null, confirmedAt: past });
  });

  it("is registered as one recurring singleton task of the job runner", () => {
    expect(registeredRecurringTasks()).toContain(housekeepingTask);
    expect(housekeepingTask.name).toBe("housekeeping");
  });
});
