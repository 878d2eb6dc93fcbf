import { inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { commentSpamTokens } from "~/server/db/schema.server";
import { spamProbability, tokenize, type TokenCounts } from "./spam-filter";

/** The row that counts trained comments (no real token is empty). */
const TOTALS_TOKEN = "";

/** The Bayesian spam probability of a comment, from the counts every instance shares. */
export async function scoreComment(db: Db, text: string): Promise<number> {
  const tokens = tokenize(text);
  const rows = await db
    .select({ token: commentSpamTokens.token, spam: commentSpamTokens.spam, ham: commentSpamTokens.ham })
    .from(commentSpamTokens)
    .where(inArray(commentSpamTokens.token, [TOTALS_TOKEN, ...tokens]));
  const counts = new Map<string, TokenCounts>(rows.map((r) => [r.token, { spam: r.spam, ham: r.ham }]));
  return spamProbability(tokens, (token) => counts.get(token), counts.get(TOTALS_TOKEN) ?? { spam: 0, ham: 0 });
}

/**
 * Learns from a moderator's decision: +1 on each token's spam or genuine count (or −1 to undo an
 * earlier decision the moderator reversed). Atomic upserts, so concurrent decisions all count.
 */
export async function trainComment(db: Db, text: string, spam: boolean, delta: 1 | -1 = 1): Promise<void> {
  const tokens = [TOTALS_TOKEN, ...tokenize(text)];
  const column = spam ? "spam" : "ham";
  const values = tokens.map((token) => ({ token, spam: spam ? Math.max(delta, 0) : 0, ham: spam ? 0 : Math.max(delta, 0) }));
  await db
    .insert(commentSpamTokens)
    .values(values)
    .onConflictDoUpdate({
      target: commentSpamTokens.token,
      set: { [column]: sql`greatest(${commentSpamTokens[column]} + ${delta}, 0)` },
    });
}
