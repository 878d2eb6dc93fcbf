import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { contactMessages, mailOutbox } from "~/server/db/schema.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "./altcha";
import type { ReceivedMail } from "./smtp";

/** An easy, valid verification token signed with the secret stored in this database (see easyAltchaToken). */
export async function easyVerificationToken(db: Db): Promise<string> {
  return easyAltchaToken(await getAppSecret(db));
}

/** Contact message ids quoted in received emails ("Message id: …"). */
export function deliveredIds(received: ReceivedMail[]): string[] {
  return received.flatMap((m) => [...m.raw.matchAll(/Message id: ([0-9a-f-]{36})/g)].map((match) => match[1] ?? ""));
}

export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A contact message's email in the outbox (its delivery state), or undefined when it has none. */
export async function deliveryOf(db: Db, messageId: string) {
  const [row] = await db
    .select({
      id: mailOutbox.id,
      state: mailOutbox.state,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      lockedUntil: mailOutbox.lockedUntil,
      sentAt: mailOutbox.sentAt,
      recipient: mailOutbox.recipient,
    })
    .from(contactMessages)
    .innerJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId))
    .where(eq(contactMessages.id, messageId));
  return row;
}
