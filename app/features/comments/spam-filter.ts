/**
 * A small Bayesian spam filter (Paul Graham's "A Plan for Spam" with Gary Robinson's smoothing and
 * Fisher's chi-square combination): pure arithmetic over token counts, so the counts can live in
 * the database (spam-filter.server.ts) where every instance trains and reads the same numbers.
 * docs/decisions/0056-comments.md says why this is ours and not a library.
 */

/** How many spam and genuine comments contained a token. */
export interface TokenCounts {
  spam: number;
  ham: number;
}

/** How many spam and genuine comments the filter has been trained on. */
export type Totals = TokenCounts;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’$€£-]*/gu;
const URL_HOST = /https?:\/\/([^\s/)\]>"']+)/gi;
/** Tokens at most this many per comment, so a huge body costs a bounded number of lookups. */
export const MAX_TOKENS = 200;

/**
 * The distinct tokens of a comment: its lower-cased words (2–30 characters), each linked host as
 * `host:…`, and a few shape features (link count, shouting) that spam shares across wordings.
 */
export function tokenize(text: string): string[] {
  const tokens = new Set<string>();
  let links = 0;
  for (const match of text.matchAll(URL_HOST)) {
    links += 1;
    const host = (match[1] ?? "").toLowerCase().replace(/^www\./, "");
    tokens.add(`host:${host}`);
    const parts = host.split(".");
    if (parts.length > 1) tokens.add(`tld:${parts.at(-1)}`);
  }
  tokens.add(`links:${Math.min(links, 3)}`);
  const letters = text.replace(/[^\p{L}]/gu, "");
  const upper = text.replace(/[^\p{Lu}]/gu, "");
  if (letters.length >= 20 && upper.length / letters.length > 0.5) tokens.add("shape:shouting");
  if (/!{2,}/.test(text)) tokens.add("shape:bangs");
  for (const match of text.replace(URL_HOST, " ").matchAll(WORD)) {
    const word = match[0].toLowerCase().replace(/['’-]+$/, "");
    if (word.length < 2 || word.length > 30) continue;
    tokens.add(word);
    if (tokens.size >= MAX_TOKENS) break;
  }
  return [...tokens];
}

/** Robinson's strength of the prior and the assumed probability of a token never seen. */
const PRIOR_STRENGTH = 1;
const PRIOR = 0.5;
/** Tokens whose probability is nearer 0.5 than this carry no evidence. */
const MIN_DEVIATION = 0.1;
/** Only the most telling tokens vote, so a long genuine text cannot drown one spam word (nor the reverse). */
const MAX_VOTERS = 30;

/** Robinson's f(w): the spam probability of one token, smoothed toward 0.5 when it was seen rarely. */
export function tokenProbability(counts: TokenCounts, totals: Totals): number {
  const spamFreq = totals.spam > 0 ? counts.spam / totals.spam : 0;
  const hamFreq = totals.ham > 0 ? counts.ham / totals.ham : 0;
  const n = counts.spam + counts.ham;
  const p = spamFreq + hamFreq === 0 ? PRIOR : spamFreq / (spamFreq + hamFreq);
  return (PRIOR_STRENGTH * PRIOR + n * p) / (PRIOR_STRENGTH + n);
}

/** The inverse chi-square distribution function for an even number of degrees of freedom. */
function chi2Q(chi: number, degrees: number): number {
  const m = chi / 2;
  let term = Math.exp(-m);
  let sum = term;
  for (let i = 1; i < degrees / 2; i++) {
    term *= m / i;
    sum += term;
  }
  return Math.min(sum, 1);
}

/**
 * The spam probability of a comment's tokens (0 genuine … 1 spam, 0.5 when nothing is known), by
 * Fisher's method: combines how strongly the tokens point each way.
 */
export function spamProbability(tokens: readonly string[], lookup: (token: string) => TokenCounts | undefined, totals: Totals): number {
  if (totals.spam === 0 || totals.ham === 0) return PRIOR;
  const probabilities = tokens
    .map((token) => tokenProbability(lookup(token) ?? { spam: 0, ham: 0 }, totals))
    .filter((p) => Math.abs(p - 0.5) >= MIN_DEVIATION)
    .sort((a, b) => Math.abs(b - 0.5) - Math.abs(a - 0.5))
    .slice(0, MAX_VOTERS);
  if (probabilities.length === 0) return PRIOR;
  let lnSpam = 0;
  let lnHam = 0;
  for (const p of probabilities) {
    lnSpam += Math.log(Math.max(1 - p, 1e-200));
    lnHam += Math.log(Math.max(p, 1e-200));
  }
  const degrees = 2 * probabilities.length;
  const spamness = 1 - chi2Q(-2 * lnSpam, degrees);
  const hamness = 1 - chi2Q(-2 * lnHam, degrees);
  return (1 + spamness - hamness) / 2;
}

/** An in-memory model, for the tests' corpus and for scoring a batch with counts read once. */
export class MemoryModel {
  readonly counts = new Map<string, TokenCounts>();
  readonly totals: Totals = { spam: 0, ham: 0 };

  train(text: string, spam: boolean): void {
    for (const token of tokenize(text)) {
      const counts = this.counts.get(token) ?? { spam: 0, ham: 0 };
      if (spam) counts.spam += 1;
      else counts.ham += 1;
      this.counts.set(token, counts);
    }
    if (spam) this.totals.spam += 1;
    else this.totals.ham += 1;
  }

  score(text: string): number {
    return spamProbability(tokenize(text), (token) => this.counts.get(token), this.totals);
  }
}
