import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * Migrations are reviewed for rolling deploys (docs/decisions/0061-expand-contract-migrations.md): while
 * instances are upgraded one at a time, the previous release's code runs against the new schema, so a
 * migration only expands it. A statement that takes something away or tightens it (drop or rename a
 * table or column, change a column's type, make a column NOT NULL, add a NOT NULL column without a
 * default) is a contract step: it ships a release after the code stopped using the old shape, and its
 * file says so on a line `-- contract: <what no release since which version reads>`.
 */
const root = path.resolve(import.meta.dirname, "../..");
const drizzleDir = path.join(root, "drizzle");

/** Written before the rule; 0029 drops the columns the mail outbox replaced in the same release. */
const BEFORE_THE_RULE = 30;

const CONTRACT_MARKER = /^--\s*contract:\s*\S/m;

const DESTRUCTIVE: { pattern: RegExp; what: string }[] = [
  { pattern: /\bDROP\s+TABLE\b/i, what: "drops a table" },
  { pattern: /\bDROP\s+COLUMN\b/i, what: "drops a column" },
  { pattern: /\bRENAME\b/i, what: "renames a table or column" },
  { pattern: /\bALTER\s+COLUMN\s+"?[\w]+"?\s+(SET\s+DATA\s+)?TYPE\b/i, what: "changes a column's type" },
  { pattern: /\bSET\s+NOT\s+NULL\b/i, what: "makes a column NOT NULL" },
  { pattern: /\bADD\s+COLUMN\b(?![^;]*\bDEFAULT\b)[^;]*\bNOT\s+NULL\b/i, what: "adds a NOT NULL column without a default" },
];

/** The contract steps a migration's SQL takes without saying so. */
function unmarkedContractSteps(sql: string): string[] {
  if (CONTRACT_MARKER.test(sql)) return [];
  const statements = sql
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);
  return statements.flatMap((statement) =>
    DESTRUCTIVE.filter(({ pattern }) => pattern.test(statement)).map(({ what }) => `${what}: ${statement.slice(0, 120)}`),
  );
}

it("flags each kind of contract step, and none of the expand steps", () => {
  expect(unmarkedContractSteps('ALTER TABLE "a" DROP COLUMN "b";')).toHaveLength(1);
  expect(unmarkedContractSteps('DROP TABLE "a";')).toHaveLength(1);
  expect(unmarkedContractSteps('ALTER TABLE "a" RENAME COLUMN "b" TO "c";')).toHaveLength(1);
  expect(unmarkedContractSteps('ALTER TABLE "a" ALTER COLUMN "b" SET DATA TYPE integer;')).toHaveLength(1);
  expect(unmarkedContractSteps('ALTER TABLE "a" ALTER COLUMN "b" SET NOT NULL;')).toHaveLength(1);
  expect(unmarkedContractSteps('ALTER TABLE "a" ADD COLUMN "b" text NOT NULL;')).toHaveLength(1);
  expect(unmarkedContractSteps('ALTER TABLE "a" ADD COLUMN "b" text DEFAULT \'x\' NOT NULL;')).toEqual([]);
  expect(unmarkedContractSteps('ALTER TABLE "a" ADD COLUMN "b" text;--> statement-breakpoint\nCREATE INDEX "i" ON "a" ("b");')).toEqual([]);
  expect(unmarkedContractSteps('-- contract: release 0.2.0 no longer reads "b"\nALTER TABLE "a" DROP COLUMN "b";')).toEqual([]);
});

it("every migration since the rule only expands the schema, or is marked as a contract step", () => {
  const offending = fs
    .readdirSync(drizzleDir)
    .filter((name) => /^\d{4}_.*\.sql$/.test(name) && Number(name.slice(0, 4)) > BEFORE_THE_RULE)
    .flatMap((name) => unmarkedContractSteps(fs.readFileSync(path.join(drizzleDir, name), "utf8")).map((step) => `${name}: ${step}`));
  expect(offending).toEqual([]);
});
