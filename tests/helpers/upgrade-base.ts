import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { z } from "zod";
import packageJson from "../../package.json";

/**
 * The previous release the upgrade tests start from, pinned by commit (a clone may lack tags);
 * UPGRADE_BASE overrides it. 0.2.0 is tested from the last commit before the mail outbox; the release
 * after 0.2.0 pins the commit tagged v0.2.0.
 */
export const UPGRADE_BASE = process.env.UPGRADE_BASE ?? "fa14ec56fb09370d2e7eca8a4eac62a885a11c07";
const ROOT = path.resolve(import.meta.dirname, "../..");

const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

/**
 * The base's production build in a git worktree beside the temp files, kept between runs (keyed by
 * commit). It uses this checkout's node_modules when every dependency the base names is installed at
 * the same version here (releases mostly add packages); otherwise it installs its own.
 */
export function buildBase(): string {
  try {
    git("cat-file", "-e", `${UPGRADE_BASE}^{commit}`);
  } catch {
    // A shallow or partial clone lacks the base: say so rather than skip the test.
    throw new Error(
      `The upgrade base ${UPGRADE_BASE} is not in this clone: fetch it (git fetch --unshallow, or the tag) or set UPGRADE_BASE.`,
    );
  }
  const commit = git("rev-parse", `${UPGRADE_BASE}^{commit}`);
  const dir = path.join(inject("systemTempDir"), `upgrade-base-${commit.slice(0, 12)}`);
  if (!fs.existsSync(dir)) {
    git("worktree", "prune");
    git("worktree", "add", "--detach", dir, commit);
  }
  const basePackage = z
    .object({ dependencies: z.record(z.string(), z.string()), devDependencies: z.record(z.string(), z.string()) })
    .parse(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")));
  const ours: Record<string, string> = { ...packageJson.dependencies, ...packageJson.devDependencies };
  const shared = Object.entries({ ...basePackage.dependencies, ...basePackage.devDependencies }).every(
    ([name, version]) => ours[name] === version,
  );
  const modules = path.join(dir, "node_modules");
  // A link left by a checkout that has since been removed points nowhere: link this one's instead.
  if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink() && !fs.existsSync(modules)) fs.unlinkSync(modules);
  if (!fs.existsSync(modules)) {
    if (shared) fs.symlinkSync(path.join(ROOT, "node_modules"), modules);
    else execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  }
  if (fs.existsSync(path.join(dir, "build", "server", "index.js"))) return dir;
  execFileSync("npm", ["run", "build"], { cwd: dir, stdio: "inherit" });
  return dir;
}
