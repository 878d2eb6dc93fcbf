import { stem } from "porter2";
import { HIGHLIGHT_START, HIGHLIGHT_STOP } from "./highlight";
import { tokenize } from "./phrase-pairs";

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

/**
 * The lexemes a search looks for, read from its tsquery's text (`websearch_to_tsquery(…)::text`):
 * every lexeme not under a `!` (a post's words matching an excluded term are not highlighted).
 */
export function positiveLexemes(tsquery: string): Set<string> {
  const lexemes = new Set<string>();
  let negatedDepth: number | null = null;
  let depth = 0;
  let negateNext = false;
  for (const token of tokenize(tsquery) ?? []) {
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
  return lexemes;
}

/** A word of the text, where it starts and ends, and the query lexeme it matches, if any. */
interface Word {
  start: number;
  end: number;
  match: string | null;
  /** A fragment may start or end with it (not a short word nor a number). */
  goodEnd: boolean;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
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
    words.push({
      start: found.index,
      end: found.index + word.length,
      match: lexeme !== null && lexemes.has(lexeme) ? lexeme : null,
      goodEnd: !NUMBER.test(word) && (word.length > SHORT_WORD || utf8Length(word) > SHORT_WORD),
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
export function highlightAll(text: string, lexemes: ReadonlySet<string>, cache: LexemeCache = new Map()): string {
  const words = wordsOf(text, lexemes, cache);
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
 * The spans of words holding every query lexeme the text holds, one starting at each match (the
 * smallest from there), cut into pieces of at most SNIPPET_MAX_WORDS words that start and end with
 * a match (ts_headline's covers and get_next_fragment).
 */
function covers(words: readonly Word[]): Fragment[] {
  const matchAt = words.flatMap((word, i) => (word.match === null ? [] : [i]));
  const wanted = new Set(matchAt.map((i) => words[i]?.match));
  const fragments: Fragment[] = [];
  for (const [n, from] of matchAt.entries()) {
    const seen = new Set<string | null | undefined>();
    let to = -1;
    for (let m = n; m < matchAt.length && to < 0; m++) {
      const i = matchAt[m] ?? 0;
      seen.add(words[i]?.match);
      if (seen.size === wanted.size) to = i;
    }
    if (to < 0) break;
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
export function snippetOf(text: string, lexemes: ReadonlySet<string>, cache: LexemeCache = new Map()): string {
  const words = wordsOf(text, lexemes, cache);
  const candidates = covers(words);
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
