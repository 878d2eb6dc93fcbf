import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assessComment, type Verdict } from "./comment-rules";
import { MemoryModel } from "./spam-filter";

// Comments written for this test (tests/fixtures/comments/make-corpus.py writes them).
const corpus = z
  .object({ genuine: z.array(z.string()).min(200), spam: z.array(z.string()).min(200) })
  .parse(JSON.parse(readFileSync("tests/fixtures/comments/spam-corpus.json", "utf8")));

const LINK_LIMIT = 2;

/** Two-fold cross-validation: each half is judged by a filter trained on the other half only. */
function judgeAll(): { genuine: Verdict[]; spam: Verdict[] } {
  const half = <T>(xs: T[], fold: number) => xs.filter((_, i) => i % 2 === fold);
  const verdicts = { genuine: [] as Verdict[], spam: [] as Verdict[] };
  for (const fold of [0, 1]) {
    const model = new MemoryModel();
    for (const text of half(corpus.genuine, 1 - fold)) model.train(text, false);
    for (const text of half(corpus.spam, 1 - fold)) model.train(text, true);
    const judge = (body: string) =>
      assessComment(
        {
          body,
          authorName: "Reader",
          authorEmail: "reader@example.com",
          authorUrl: null,
          ip: "192.0.2.1",
          spamScore: model.score(body),
          knownAuthor: true,
          proofOfWork: true,
          staff: false,
        },
        [],
        LINK_LIMIT,
      );
    verdicts.genuine.push(...half(corpus.genuine, fold).map(judge));
    verdicts.spam.push(...half(corpus.spam, fold).map(judge));
  }
  return verdicts;
}

describe("spam filter on the fixture corpus", () => {
  it("holds or rejects at least 95 % of spam, rejects no genuine comment and holds at most 5 %", () => {
    const { genuine, spam } = judgeAll();
    const count = (verdicts: Verdict[], state: Verdict["state"]) => verdicts.filter((v) => v.state === state).length;
    const spamCaught = count(spam, "spam") + count(spam, "pending");
    const figures = {
      spam: spam.length,
      spamRejected: count(spam, "spam"),
      spamHeld: count(spam, "pending"),
      spamCaughtPercent: Math.round((spamCaught / spam.length) * 1000) / 10,
      genuine: genuine.length,
      genuineRejected: count(genuine, "spam"),
      genuineHeld: count(genuine, "pending"),
      genuineHeldPercent: Math.round((count(genuine, "pending") / genuine.length) * 1000) / 10,
    };
    console.log("spam corpus figures", figures);
    expect(spamCaught / spam.length).toBeGreaterThanOrEqual(0.95);
    expect(figures.genuineRejected).toBe(0);
    expect(count(genuine, "pending") / genuine.length).toBeLessThanOrEqual(0.05);
  });

  it("knows nothing before training: every score is 0.5", () => {
    expect(new MemoryModel().score("Buy cheap pills now")).toBe(0.5);
  });
});
