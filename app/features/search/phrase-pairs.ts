export interface RequiredPairs {
  /** "first second" for each pair (search_pair_codes joins a pair's lexemes the same way). */
  pairs: string[];
  /** The pairs' lexemes as a tsquery of their own, all ANDed (`'run' & 'dog'`). */
  lexemes: string;
}

/**
 * The adjacent word pairs every post matching a search must hold, read from the text of its
 * tsquery (`websearch_to_tsquery(...)::text`, e.g. `'run' <-> 'dog' & 'x'`): for each phrase that
 * the whole query requires (a term of a top-level AND, no OR above it), every two of its lexemes a
 * `<->` joins, as "first second". A post matches `'a' <-> 'b'` only with `b` one position after
 * `a`, so it holds the pair; the pair index (search_pair_codes in the migrations) then narrows a
 * phrase to the few posts holding its pairs before their vectors are read. Anything else (OR at
 * the top, negations, groups, weights or prefixes) asks for no pair: the filter is only ever a
 * necessary condition, never a change of results.
 */
export function requiredPairs(tsquery: string): RequiredPairs {
  const none = { pairs: [], lexemes: "" };
  const tokens = tokenize(tsquery);
  if (!tokens) return none;
  let depth = 0;
  const terms: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === "(") depth++;
    if (token.kind === ")") depth--;
    if (depth === 0 && token.kind === "|") return none;
    if (depth === 0 && token.kind === "&") terms.push([]);
    else terms.at(-1)?.push(token);
  }
  const pairs = terms.flatMap(phrasePairs);
  return {
    pairs: [...new Set(pairs.map((pair) => pair.join(" ")))],
    lexemes: [...new Set(pairs.flat())].map((lexeme) => `'${lexeme.replace(/[\\']/g, "\\$&")}'`).join(" & "),
  };
}

export type Token =
  { kind: "lexeme"; text: string } | { kind: "phrase"; distance: number } | { kind: "&" | "|" | "!" | "(" | ")" | "other" };

/** A plain phrase: lexeme, then (distance, lexeme) repeated; its pairs are the lexemes one apart. */
function phrasePairs(term: Token[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < term.length; i++) {
    const token = term[i];
    const expected = i % 2 === 0 ? "lexeme" : "phrase";
    if (token?.kind !== expected) return [];
    const [before, after] = [term[i - 1], term[i + 1]];
    if (token.kind === "phrase" && token.distance === 1 && before?.kind === "lexeme" && after?.kind === "lexeme")
      pairs.push([before.text, after.text]);
  }
  return term.length % 2 === 1 ? pairs : [];
}

const TOKEN = /\s*(?:'((?:[^'\\]|''|\\.)*)'(:[*A-D]+)?|<(-|\d+)>|([&|!()])|(\S))/gy;

/** tsqueryout's grammar: quoted lexemes ('' and \\ escaped), operators, parentheses; null when unreadable. */
export function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.trimEnd().length) {
    const match = TOKEN.exec(text);
    if (!match) return null;
    const [, lexeme, marks, distance, operator, other] = match;
    if (lexeme !== undefined)
      tokens.push(marks ? { kind: "other" } : { kind: "lexeme", text: lexeme.replace(/''/g, "'").replace(/\\(.)/g, "$1") });
    else if (distance !== undefined) tokens.push({ kind: "phrase", distance: distance === "-" ? 1 : Number(distance) });
    else if (operator === "&" || operator === "|" || operator === "!" || operator === "(" || operator === ")")
      tokens.push({ kind: operator });
    else if (other !== undefined) tokens.push({ kind: "other" });
  }
  return tokens;
}
