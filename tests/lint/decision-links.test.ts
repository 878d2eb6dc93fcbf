import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const decisionsDir = path.join(root, "docs/decisions");

/** Every file of the repository (tracked, and new ones not ignored), as text where it is text. */
function repositoryTextFiles(): { file: string; text: string }[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  return listed
    .split("\n")
    .filter((file) => file && fs.existsSync(path.join(root, file)) && !/\.(png|jpe?g|ico|webp|avif|gif|woff2?|gz|pdf)$/.test(file))
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }))
    .filter(({ text }) => !text.includes("\u0000"));
}

it("decision records are numbered one way: NNNN-title.md, one number each, listed in the index", () => {
  const records = fs.readdirSync(decisionsDir).filter((name) => name !== "README.md");
  expect(records.filter((name) => !/^\d{4}-[a-z0-9-]+\.md$/.test(name))).toEqual([]);
  const numbers = records.map((name) => name.slice(0, 4));
  expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  const index = fs.readFileSync(path.join(decisionsDir, "README.md"), "utf8");
  expect(records.filter((name) => !index.includes(`(${name})`))).toEqual([]);
});

it("every mention of docs/decisions/… names a record that exists", () => {
  const broken: string[] = [];
  for (const { file, text } of repositoryTextFiles()) {
    // "decisions/" followed by a name: a record (or the index), never a directory listing or a pattern.
    for (const match of text.matchAll(/decisions\/([A-Za-z0-9][\w.*-]*)/g)) {
      const name = (match[1] ?? "").replace(/[.,;:]+$/, "");
      if (!fs.existsSync(path.join(decisionsDir, name)) || !name.endsWith(".md")) broken.push(`${file}: decisions/${name}`);
    }
  }
  expect(broken).toEqual([]);
});

it("links between documents (](…md)) lead to files that exist", () => {
  const broken: string[] = [];
  for (const { file, text } of repositoryTextFiles().filter(({ file }) => file.endsWith(".md"))) {
    for (const match of text.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z]+:/.test(target)) continue;
      if (!fs.existsSync(path.resolve(root, path.dirname(file), target))) broken.push(`${file}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
