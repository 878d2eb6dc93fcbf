import type { CommentBlockKind } from "~/server/db/schema.server";

/** What the filters decide about a new comment. "spam" goes to the spam queue, never on the page. */
export type Verdict = { state: "approved" } | { state: "pending"; reason: string } | { state: "spam"; reason: string };

/** Spam probability from which a comment is filed as spam, and from which it waits for a moderator. */
export const SPAM_THRESHOLD = 0.99;
export const HOLD_THRESHOLD = 0.7;

export interface CommentFacts {
  body: string;
  authorName: string;
  authorEmail: string;
  authorUrl: string | null;
  ip: string;
  /** The Bayesian filter's probability (0.5 when it knows nothing). */
  spamScore: number;
  /**
   * A comment: its email is confirmed and the owner chose "Auto-approve this person". A Webmention: its
   * source's site had a mention approved before.
   */
  knownAuthor: boolean;
  /** The reader's browser solved the proof of work (false: posted without JavaScript). */
  proofOfWork: boolean;
  /** Written by a signed-in staff member. */
  staff: boolean;
}

export interface Block {
  kind: CommentBlockKind;
  value: string;
}

/** Why a comment from an author the owner does not trust yet waits. */
export const UNKNOWN_AUTHOR_REASON = "First comment from this email";

const LINK = /https?:\/\/[^\s)\]>"']+/gi;

/** Links in a comment (Markdown links and bare addresses alike), for the link limit. */
export function linkCount(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** The IPv4 address as a number, or null. */
function ipv4(value: string): number | null {
  const parts = value.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    n = n * 256 + Number(part);
  }
  return n;
}

/** Whether an address is the entry or inside its CIDR range (IPv4 ranges; IPv6 entries match exactly or by prefix). */
export function ipMatches(ip: string, entry: string): boolean {
  const address = ip.toLowerCase().replace(/^::ffff:/, "");
  const [base = "", bitsText] = entry.split("/");
  if (bitsText === undefined) return address === base;
  const bits = Number(bitsText);
  const a = ipv4(address);
  const b = ipv4(base);
  if (a !== null && b !== null && Number.isInteger(bits) && bits >= 0 && bits <= 32) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (a & mask) >>> 0 === (b & mask) >>> 0;
  }
  // IPv6 range: compare whole hextets of the prefix.
  if (!Number.isInteger(bits) || bits % 16 !== 0) return false;
  const groups = bits / 16;
  const expand = (v: string) => {
    const [head = "", tail = ""] = v.split("::");
    const h = head ? head.split(":") : [];
    const t = tail ? tail.split(":") : [];
    return [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t].map((g) => g.replace(/^0+(?=.)/, ""));
  };
  return expand(address).slice(0, groups).join(":") === expand(base).slice(0, groups).join(":");
}

/** The first block-list entry the comment matches, or null. */
export function matchingBlock(
  facts: Pick<CommentFacts, "body" | "authorName" | "authorEmail" | "authorUrl" | "ip">,
  blocks: readonly Block[],
) {
  const text = `${facts.authorName}\n${facts.body}\n${facts.authorUrl ?? ""}`.toLowerCase();
  const hosts = [...text.matchAll(/https?:\/\/([^\s/:)\]>"']+)/g)].map((m) => (m[1] ?? "").replace(/^www\./, ""));
  return (
    blocks.find((block) => {
      if (block.kind === "email") return facts.authorEmail === block.value || facts.authorEmail.endsWith(`@${block.value}`);
      if (block.kind === "ip") return ipMatches(facts.ip, block.value);
      if (block.kind === "host") return hosts.some((host) => host === block.value || host.endsWith(`.${block.value}`));
      // A blocked fediverse account is refused at the inbox, before anything is filed.
      if (block.kind === "actor") return false;
      return text.includes(block.value);
    }) ?? null
  );
}

/**
 * The filters in order: the block list and a near-certain Bayesian score file it as spam; too many
 * links, a doubtful score, a first comment from an email or a post without the proof of work wait
 * for a moderator; anything else from a known reader is published. Staff comments skip the filters.
 * Trust lifts only the "first comment" hold: a trusted reader's comment still meets the block list,
 * the spam filter, the link limit and the anti-bot checks (docs/decisions/0081-trusted-commenters.md).
 */
export function assessComment(facts: CommentFacts, blocks: readonly Block[], linkLimit: number): Verdict {
  if (facts.staff) return { state: "approved" };
  const block = matchingBlock(facts, blocks);
  if (block) return { state: "spam", reason: `Matches the block list (${block.kind}: ${block.value})` };
  if (facts.spamScore >= SPAM_THRESHOLD) return { state: "spam", reason: `Spam filter: ${Math.round(facts.spamScore * 100)} %` };
  const links = linkCount(`${facts.body}`);
  if (links > linkLimit) return { state: "pending", reason: `More than ${linkLimit} link${linkLimit === 1 ? "" : "s"}` };
  if (facts.spamScore >= HOLD_THRESHOLD) return { state: "pending", reason: `Spam filter: ${Math.round(facts.spamScore * 100)} %` };
  if (!facts.proofOfWork) return { state: "pending", reason: "Sent without the security check (no JavaScript)" };
  if (!facts.knownAuthor) return { state: "pending", reason: UNKNOWN_AUTHOR_REASON };
  return { state: "approved" };
}
