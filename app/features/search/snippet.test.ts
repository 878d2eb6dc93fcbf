import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "~/server/db/query-rows.server";
import type { Database } from "~/server/db/client.server";
import { DEMO_POSTS } from "~/server/demo-content.server";
import { createTestDatabase } from "../../../tests/helpers/databases";
import { HIGHLIGHT_START as S, HIGHLIGHT_STOP as E } from "./highlight";
import { englishLexeme, highlightAll, searchTerms, snippetOf, SNIPPET_DELIMITER } from "./snippet";

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const count = (text: string) => words(text.replaceAll(SNIPPET_DELIMITER, " ").replaceAll(S, "").replaceAll(E, "")).length;

const all = (...lexemes: string[]) => ({ lexemes: new Set(lexemes), allNeeded: true, pairs: [] });
const any = (...lexemes: string[]) => ({ lexemes: new Set(lexemes), allNeeded: false, pairs: [] });

describe("searchTerms", () => {
  // The inputs are what PostgreSQL prints for websearch_to_tsquery('english', …)::text.
  it("takes every lexeme but the excluded ones, and whether all are needed", () => {
    expect(searchTerms(`'run' <-> 'dog' & 'cat'`)).toEqual({ ...all("run", "dog", "cat"), pairs: ["run dog"] });
    expect(searchTerms(`'run' & !'dog' | 'cat'`)).toEqual(any("run", "cat"));
    expect(searchTerms(`!( 'x' <-> 'y' ) & 'z'`)).toEqual(all("z"));
    expect(searchTerms(`'o''reilli' & ( 'a' | !'b' )`)).toEqual(any("o'reilli", "a"));
    expect(searchTerms("")).toEqual(all());
  });
});

describe("highlightAll", () => {
  it("marks every word whose English stem is a query lexeme, and keeps the text as it is", () => {
    expect(highlightAll("Running with dogs, the runner ran.", all("run", "dog"))).toBe(
      `${S}Running${E} with ${S}dogs${E}, the runner ran.`,
    );
    expect(highlightAll("  -- ", all("run"))).toBe("  -- ");
    // Stop words are never indexed, so never highlighted; words with digits are only lower-cased.
    expect(highlightAll("The 2FA in Vite5", all("the", "2fa", "vite5"))).toBe(`The ${S}2FA${E} in ${S}Vite5${E}`);
  });
});

describe("snippetOf", () => {
  const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");

  it("shows the text's first 15 words when nothing matches", () => {
    expect(snippetOf(text, all("nothing"))).toBe(words(text).slice(0, 15).join(" "));
    expect(snippetOf("", all("x"))).toBe("");
  });

  it("leaves HTML tags out, as ts_headline did", () => {
    const snippet = snippetOf('<p>A <a href="/x">dog</a> in the <em>garden</em></p><br/>', all("dog"));
    expect(snippet).not.toMatch(/[<>]/);
    expect(snippet).toContain(`${S}dog${E}`);
    expect(snippetOf("less 3 < 4 and 5 > 2, a <3 heart", all("heart"))).toContain("3 < 4 and 5 > 2");
  });

  it("makes two fragments of at most 35 words around the matches, in the text's order", () => {
    const body = words(text);
    body[40] = "dogs";
    body[150] = "dog";
    body[152] = "barking";
    const snippet = snippetOf(body.join(" "), any("dog", "bark"));
    const [first, second] = snippet.split(SNIPPET_DELIMITER);
    expect(first).toContain(`${S}dogs${E}`);
    expect(second).toContain(`${S}dog${E} word151 ${S}barking${E}`);
    for (const fragment of [first, second]) expect(count(fragment ?? "")).toBeGreaterThanOrEqual(30);
    for (const fragment of [first, second]) expect(count(fragment ?? "")).toBeLessThanOrEqual(35);
    // Stretched evenly: the match is in the middle of its fragment.
    expect(first?.startsWith("word23 ")).toBe(true);
    // When every word is needed, the fragment holding them all is the one shown.
    const both = snippetOf(body.join(" "), all("dog", "bark"));
    expect(both).not.toContain(SNIPPET_DELIMITER);
    expect(both).toContain(`${S}dog${E} word151 ${S}barking${E}`);
    expect(both).not.toContain("dogs");
    // A phrase's words in a row: the words apart are no fragment of their own.
    body[10] = "bark";
    body[11] = "dogs";
    const phrase = snippetOf(body.join(" "), { ...all("dog", "bark"), pairs: ["bark dog"] });
    expect(phrase).not.toContain(SNIPPET_DELIMITER);
    expect(phrase).toContain(`${S}bark${E} ${S}dogs${E}`);
    expect(snippetOf(body.join(" "), all("dog", "bark")).split(SNIPPET_DELIMITER)).toHaveLength(2);
    // A hyphenated word is also indexed whole ('bark-dogs'), which no word here is.
    const hyphenated = searchTerms(`'bark-dog' <-> 'bark' <-> 'dog'`);
    expect(snippetOf(body.join(" ").replace("bark dogs", "bark-dogs"), hyphenated)).toBe(phrase.replace(`${E} ${S}`, `${E}-${S}`));
    // A needed word the text lacks (it is in the title): the text's first words, as ts_headline.
    expect(snippetOf(body.join(" "), all("dog", "cat"))).toBe(body.slice(0, 15).join(" ").replace("dogs", `${S}dogs${E}`));
  });

  it("never starts or ends a fragment with a short word or a number", () => {
    const body = words(text).map((_, i): string => (i % 2 ? "ab" : "12"));
    body[100] = "matching";
    const snippet = snippetOf(body.join(" "), all("match"));
    expect(snippet).toBe(`${S}matching${E}`);
    // A match may, however short.
    body[103] = "lon";
    expect(snippetOf(body.join(" "), any("match", "lon"))).toBe(`${S}matching${E} ab 12 ${S}lon${E}`);
  });

  it("cuts a long span holding all the words into fragments that start and end with a match", () => {
    const body = words(text);
    body[10] = "alpha";
    body[100] = "omega";
    const snippet = snippetOf(body.join(" "), all("alpha", "omega"));
    expect(snippet.split(SNIPPET_DELIMITER)).toHaveLength(2);
    expect(snippet).toContain(`${S}alpha${E}`);
    expect(snippet).toContain(`${S}omega${E}`);
  });
});

describe("the English lexemes of PostgreSQL (PGlite)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.close();
  });

  // The demo posts' words, the benchmark's kind of made-up words, and words the Snowball English
  // stemmer treats specially (exceptions, -y, -ly, doubled consonants, apostrophes split apart).
  const demoWords = DEMO_POSTS.flatMap((post) => [post.title, post.excerpt ?? "", post.content]).flatMap(
    (text) => text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [],
  );
  const special =
    "skis skies dying lying tying news innings outings cannings howe proceed exceed succeed andes atlas cosmos bias " +
    "generate generously gently early only singly arsenal communism commune universal university kaloriminun stafleslon " +
    "Running RUNNING consign consigned consigning consignment knack knackeries knavish hopping hoped hoping filing " +
    "sky skying abandoning abeyance ably abnormality tried ties cries agreed feed bleed fluently emotionally " +
    "2024 v8 café naïve résumé Zürich 3d html5 id idly";
  const vocabulary = [...new Set([...demoWords, ...words(special)])];

  it("are the ones made here for a few hundred words", async () => {
    expect(vocabulary.length).toBeGreaterThan(300);
    const rows = await queryRows(
      database.db,
      sql`select w as word, coalesce(array_to_string(tsvector_to_array(to_tsvector('english', w)), ' '), '') as lexemes
          from unnest(string_to_array(${vocabulary.join(" ")}, ' ')) as w`,
      z.object({ word: z.string(), lexemes: z.string() }),
    );
    const differing = rows.filter(({ word, lexemes }) => (englishLexeme(word) ?? "") !== lexemes);
    expect(differing).toEqual([]);
    expect(rows).toHaveLength(vocabulary.length);
  });

  it("highlight a title as ts_headline with HighlightAll did", async () => {
    const cases = DEMO_POSTS.map((post, i) => ({ title: post.title, query: words(post.title).at(i % 3) ?? "" }));
    const rows = await queryRows(
      database.db,
      sql`select t.title, websearch_to_tsquery('english', t.query)::text as parsed,
            ts_headline('english', t.title, websearch_to_tsquery('english', t.query), ${`StartSel=${S}, StopSel=${E}, HighlightAll=true`}) as headline
          from json_to_recordset(${JSON.stringify(cases)}::json) as t(title text, query text)`,
      z.object({ title: z.string(), parsed: z.string(), headline: z.string() }),
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const { title, parsed, headline } of rows) expect(highlightAll(title, searchTerms(parsed))).toBe(headline);
  });

  it("make the snippets ts_headline made of the demo posts", async () => {
    const cases = DEMO_POSTS.flatMap((post, i) => {
      const text = post.excerpt === null ? post.content : `${post.excerpt} ${post.content}`;
      const long = (text.match(/[\p{L}]{5,}/gu) ?? []).filter((_, j) => j % 7 === i % 7);
      return [
        long[3] ?? "",
        `${long[5] ?? ""} ${long[40] ?? ""}`,
        `"${long[8] ?? ""} ${long[9] ?? ""}"`,
        `${long[2] ?? ""} or ${long[60] ?? ""}`,
      ].map((query) => ({ text, query }));
    });
    const rows = await queryRows(
      database.db,
      sql`select t.text, t.query, websearch_to_tsquery('english', t.query)::text as parsed,
            ts_headline('english', t.text, websearch_to_tsquery('english', t.query),
              ${`StartSel=${S}, StopSel=${E}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`}) as headline
          from json_to_recordset(${JSON.stringify(cases)}::json) as t(text text, query text)`,
      z.object({ text: z.string(), query: z.string(), parsed: z.string(), headline: z.string() }),
    );
    const differing = rows.filter(({ text, parsed, headline }) => snippetOf(text, searchTerms(parsed)) !== headline);
    expect(
      differing.map(({ query, parsed, text, headline }) => ({ query, parsed, headline, mine: snippetOf(text, searchTerms(parsed)) })),
    ).toEqual([]);
  });
});
