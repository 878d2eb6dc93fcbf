import { describe, expect, it } from "vitest";
import { requiredPairs } from "./phrase-pairs";

const pairs = (tsquery: string) => requiredPairs(tsquery).pairs;

// The inputs are what PostgreSQL prints for websearch_to_tsquery('english', …)::text.
describe("requiredPairs", () => {
  it("gives the adjacent pairs of each phrase the whole query needs, and their lexemes as a tsquery", () => {
    expect(requiredPairs(`'run' <-> 'dog' & 'x'`)).toEqual({ pairs: ["run dog"], lexemes: `'run' & 'dog'` });
    expect(requiredPairs(`'u' <-> 'v' & 'w' <-> 'x' <-> 'y'`)).toEqual({
      pairs: ["u v", "w x", "x y"],
      lexemes: `'u' & 'v' & 'w' & 'x' & 'y'`,
    });
    expect(pairs(`'foo-bar' <-> 'foo' <-> 'bar'`)).toEqual(["foo-bar foo", "foo bar"]);
    expect(pairs(`'x' <-> 'y' & !'z'`)).toEqual(["x y"]);
  });

  it("skips words a stop word kept apart, and phrases without an adjacent pair", () => {
    expect(pairs(`'o' <-> 'reilli' <2> 'book'`)).toEqual(["o reilli"]);
    expect(requiredPairs(`'cat' <3> 'mat'`)).toEqual({ pairs: [], lexemes: "" });
    expect(pairs(`'cat' & 'mat'`)).toEqual([]);
    expect(pairs("")).toEqual([]);
  });

  it("asks for nothing a match may lack: alternatives, negated or grouped phrases, weights, prefixes", () => {
    expect(pairs(`'a' <-> 'b' | 'c'`)).toEqual([]);
    expect(pairs(`!( 'x' <-> 'y' ) & 'z'`)).toEqual([]);
    expect(pairs(`!'x' <-> 'y'`)).toEqual([]);
    expect(pairs(`'a' <-> ( 'b' | 'c' )`)).toEqual([]);
    expect(pairs(`( 'a' | 'b' ) & 'c' <-> 'd'`)).toEqual(["c d"]);
    expect(pairs(`'a':* <-> 'b'`)).toEqual([]);
    expect(pairs(`'a':AB <-> 'b'`)).toEqual([]);
  });

  it("reads quoted lexemes as PostgreSQL escapes them, and escapes them again for the tsquery", () => {
    expect(requiredPairs(`'it''s' <-> 'a\\\\b'`)).toEqual({ pairs: ["it's a\\b"], lexemes: `'it\\'s' & 'a\\\\b'` });
    expect(pairs(`'a.b' <-> 'c'`)).toEqual(["a.b c"]);
  });

  it("gives nothing for text it cannot read", () => {
    expect(pairs(`'unterminated <-> 'b'`)).toEqual([]);
    expect(pairs(`'a' <-> 'b' ~`)).toEqual([]);
  });
});
