import { stem } from "porter2";
import { HIGHLIGHT_START, HIGHLIGHT_STOP } from "./highlight";
import { requiredPairs, tokenize } from "./phrase-pairs";

/**
 * The search page's highlighted titles and snippets, made here from the page's ten posts instead of
 * by PostgreSQL's ts_headline, which parses each whole post again (in PGlite's WASM, ~0.5 ms a post:
 * a third of a search's CPU). The same options as before: a title highlighted in full
 * (HighlightAll), a snippet of at most two fragments of up to 35 words around the matches, joined by
 * " … ", or the text's first 15 words when nothing matches. Which posts match and their order are
 * PostgreSQL's alone: this only marks words.
 */
export const SNIPPET_MAX_WORDS = 35;
export const SNIPPET_MIN_WORDS = 15;
export const SNIPPET_MAX_FRAGMENTS = 2;
export const SNIPPET_DELIMITER = " … ";
/** ts_headline's ShortWord: a fragment neither starts nor ends with a word this short (or a number). */
const SHORT_WORD = 3;

/**
 * PostgreSQL's `english` stop words (its tsearch_data/english.stop): the `english_stem` dictionary
 * indexes none of them, so a query never holds them and they are never highlighted.
 */
const STOP_WORDS = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its " +
    "itself they them their theirs themselves what which who whom this that these those am is are was were be been being have " +
    "has had having do does did doing a an the and but if or because as until while of at by for with about against between " +
    "into through during before after above below to from up down in out on off over under again further then once here " +
    "there when where why how all any both each few more most other some such no nor not only own same so than too very s t " +
    "can will just don should now"
  ).split(" "),
);

const DIGIT = /\p{N}/u;

/**
 * The lexeme PostgreSQL's `english` configuration makes of one word of the default parser (letters
 * and digits): words with digits through the `simple` dictionary (lower-cased), words of letters
 * through `english_stem` (lower-cased, Snowball English stem), null for a stop word.
 */
export function englishLexeme(word: string): string | null {
  const lower = word.toLowerCase();
  if (DIGIT.test(lower)) return lower;
  if (STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** What a search looks for in a post's text, read from its tsquery. */
export interface SearchTerms {
  /** Every lexeme not under a `!`: a post's words matching an excluded term are not highlighted. */
  lexemes: ReadonlySet<string>;
  /** No alternative (`|`): a fragment around the matches must hold every (plain) lexeme. */
  allNeeded: boolean;
  /** The word pairs of the phrases the whole query needs ("first second", from ./phrase-pairs). */
  pairs: readonly string[];
}

/**
 * The terms of a tsquery's text (`websearch_to_tsquery(…)::text`, e.g. `'run' <-> 'dog' & !'cat'`);
 * `pairs`: its required phrase pairs when the caller has already read them (requiredPairs).
 */
export function searchTerms(tsquery: string, pairs: readonly string[] = requiredPairs(tsquery).pairs): SearchTerms {
  const lexemes = new Set<string>();
  let negatedDepth: number | null = null;
  let depth = 0;
  let negateNext = false;
  let allNeeded = true;
  for (const token of tokenize(tsquery) ?? []) {
    if (token.kind === "|") allNeeded = false;
    if (token.kind === "!") {
      negateNext = true;
      continue;
    }
    if (token.kind === "(") {
      if (negateNext && negatedDepth === null) negatedDepth = depth;
      negateNext = false;
      depth++;
      continue;
    }
    if (token.kind === ")") {
      depth--;
      if (negatedDepth === depth) negatedDepth = null;
      continue;
    }
    if (token.kind === "lexeme" && !negateNext && negatedDepth === null) lexemes.add(token.text);
    if (token.kind === "lexeme" || token.kind === "other") negateNext = false;
  }
  return { lexemes, allNeeded, pairs };
}

/** A word of the text, where it starts and ends, and the query lexeme it matches, if any. */
interface Word {
  start: number;
  end: number;
  match: string | null;
  /** A fragment may start or end with it (a match, or neither a short word nor a number). */
  goodEnd: boolean;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;
const NUMBER = /^\p{N}+$/u;
const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** Stems are cached for the page's posts: the same words come back in every post. */
export type LexemeCache = Map<string, string | null>;

function wordsOf(text: string, lexemes: ReadonlySet<string>, cache: LexemeCache): Word[] {
  const words: Word[] = [];
  for (const found of text.matchAll(WORD)) {
    const word = found[0];
    let lexeme = cache.get(word);
    if (lexeme === undefined) {
      lexeme = englishLexeme(word);
      cache.set(word, lexeme);
    }
    const match = lexeme !== null && lexemes.has(lexeme) ? lexeme : null;
    words.push({
      start: found.index,
      end: found.index + word.length,
      match,
      goodEnd: match !== null || (!NUMBER.test(word) && (word.length > SHORT_WORD || utf8Length(word) > SHORT_WORD)),
    });
  }
  return words;
}

/** `text` from word `from` to word `to` (included), the matching words between the markers. */
function marked(text: string, words: readonly Word[], from: number, to: number): string {
  let out = "";
  let at = words[from]?.start ?? 0;
  for (let i = from; i <= to; i++) {
    const word = words[i];
    if (!word) break;
    out += text.slice(at, word.start);
    out +=
      word.match === null ? text.slice(word.start, word.end) : `${HIGHLIGHT_START}${text.slice(word.start, word.end)}${HIGHLIGHT_STOP}`;
    at = word.end;
  }
  return out;
}

/** The whole text, every word matching a query lexeme between the highlight markers. */
export function highlightAll(text: string, terms: SearchTerms, cache: LexemeCache = new Map()): string {
  const words = wordsOf(text, terms.lexemes, cache);
  if (words.length === 0) return text;
  return text.slice(0, words[0]?.start) + marked(text, words, 0, words.length - 1) + text.slice(words.at(-1)?.end);
}

interface Fragment {
  from: number;
  to: number;
  /** Matching words in it (before stretching), and all its words. */
  matches: number;
  length: number;
}

/**
 * ts_headline's covers, cut into pieces of at most SNIPPET_MAX_WORDS words that start and end with
 * a match (its get_next_fragment): with alternatives, each match; otherwise the shortest spans
 * holding every lexeme and every phrase's word pairs, from left to right (none when the text lacks
 * one: a hyphenated word's whole form, which PostgreSQL also indexes, is not needed).
 */
function covers(words: readonly Word[], terms: SearchTerms): Fragment[] {
  const matchAt = words.flatMap((word, i) => (word.match === null ? [] : [i]));
  const spans: [number, number][] = [];
  const needed = new Set([...terms.lexemes].filter((lexeme) => !lexeme.includes("-")));
  if (!terms.allNeeded || needed.size <= 1) for (const i of matchAt) spans.push([i, i]);
  else {
    // What a cover needs: each lexeme, and each phrase's pair as two words in a row.
    const occurrences: { unit: string; from: number; to: number }[] = [];
    const pairs = new Set(terms.pairs.filter((pair) => !pair.includes("-")));
    // A pair holds its two lexemes: they are not needed apart as well.
    for (const lexeme of [...pairs].flatMap((pair) => pair.split(" "))) needed.delete(lexeme);
    for (const i of matchAt) {
      const match = words[i]?.match ?? "";
      if (needed.has(match)) occurrences.push({ unit: match, from: i, to: i });
      const pair = `${match} ${words[i + 1]?.match ?? ""}`;
      if (pairs.has(pair)) occurrences.push({ unit: pair, from: i, to: i + 1 });
    }
    const units = needed.size + pairs.size;
    for (let first = 0; first < occurrences.length;) {
      // Where each unit last occurs from `first` on, until all have.
      const last = new Map<string, number>();
      for (let k = first; k < occurrences.length && last.size < units; k++) {
        const occurrence = occurrences[k];
        if (occurrence) last.set(occurrence.unit, k);
      }
      if (last.size < units) break;
      const kept = [...last.values()].map((k) => occurrences[k] ?? { from: 0, to: 0 });
      const start = Math.min(...kept.map((o) => o.from));
      spans.push([start, Math.max(...kept.map((o) => o.to))]);
      // The next cover starts after this one's first word.
      while ((occurrences[first]?.from ?? Infinity) <= start) first++;
    }
  }
  const fragments: Fragment[] = [];
  for (const [from, to] of spans) {
    let start = from;
    while (start <= to) {
      let end = Math.min(to, start + SNIPPET_MAX_WORDS - 1);
      while (end > start && words[end]?.match === null) end--;
      let matches = 0;
      for (let i = start; i <= end; i++) if (words[i]?.match !== null) matches++;
      fragments.push({ from: start, to: end, matches, length: end - start + 1 });
      start = end + 1;
      while (start <= to && words[start]?.match === null) start++;
    }
  }
  return fragments;
}

/**
 * A snippet of `text`: up to SNIPPET_MAX_FRAGMENTS fragments of up to SNIPPET_MAX_WORDS words, the
 * ones with the most matches first (then the shortest, then the earliest), each stretched evenly
 * around its matches and cut back to words that are neither short nor numbers, shown in the text's
 * order with SNIPPET_DELIMITER between them; the first SNIPPET_MIN_WORDS words when no word
 * matches. As ts_headline's fragment mode (MaxWords 35, MinWords 15, MaxFragments 2) does.
 */
export function snippetOf(body: string, terms: SearchTerms, cache: LexemeCache = new Map()): string {
  // An HTML tag in a post's text (raw HTML in Markdown, imported posts) is one token to PostgreSQL's
  // parser, and ts_headline left it out: so here.
  const text = body.replace(HTML_TAG, " ");
  const words = wordsOf(text, terms.lexemes, cache);
  const candidates = covers(words, terms);
  const inFragment = new Uint8Array(words.length);
  const chosen: Fragment[] = [];
  const excluded = new Set<Fragment>();
  while (chosen.length < SNIPPET_MAX_FRAGMENTS) {
    let best: Fragment | undefined;
    for (const fragment of candidates) {
      if (excluded.has(fragment)) continue;
      if (!best || fragment.matches > best.matches || (fragment.matches === best.matches && fragment.length < best.length)) best = fragment;
    }
    if (!best) break;
    let { from, to, length } = best;
    if (length < SNIPPET_MAX_WORDS) {
      const stretch = Math.floor((SNIPPET_MAX_WORDS - length) / 2);
      let start = from;
      for (let i = from - 1; i >= 0 && from - i <= stretch && !inFragment[i]; i--) start = i;
      while (start < from && !words[start]?.goodEnd) start++;
      length += from - start;
      from = start;
      let end = to;
      for (let i = to + 1; i < words.length && length < SNIPPET_MAX_WORDS && !inFragment[i]; i++) {
        end = i;
        length++;
      }
      while (end > to && !words[end]?.goodEnd) end--;
      to = end;
    }
    inFragment.fill(1, from, to + 1);
    chosen.push({ from, to, matches: best.matches, length });
    // Candidates overlapping a chosen fragment are not chosen again (ts_headline's exclusion).
    for (const fragment of candidates) if (fragment.to >= from && fragment.from <= to) excluded.add(fragment);
  }
  if (chosen.length === 0) {
    const to = Math.min(words.length, SNIPPET_MIN_WORDS) - 1;
    return to < 0 ? text : text.slice(0, words[0]?.start) + marked(text, words, 0, to);
  }
  return chosen
    .sort((a, b) => a.from - b.from)
    .map((fragment) => marked(text, words, fragment.from, fragment.to))
    .join(SNIPPET_DELIMITER);
}
