import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });

/** Lints one in-memory module as if it lived at `file`, and returns the complaints of one rule. */
async function ruleErrors(rule: string, file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  // A parse error or a missing rule would hide the rule under test; fail loudly instead.
  expect(messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

/** The import-direction complaints (layers, and features' public modules). */
const boundaryErrors = (file: string, source: string) => ruleErrors("import-x/no-restricted-paths", file, source);

describe("the lint config enforces the import direction", () => {
  it("lets lib import only external packages and other lib modules", async () => {
    expect(
      await boundaryErrors(
        "app/lib/probe.ts",
        `import { z } from "zod";\nimport { CATEGORIES } from "./categories";\nexport const x = [z, CATEGORIES];\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors("app/lib/probe.ts", `import { NAV_LINKS } from "~/features/layout/site-links";\nexport const x = NAV_LINKS;\n`),
    ).toEqual([expect.stringContaining("app/lib holds pure rules")]);
    expect(
      await boundaryErrors("app/lib/probe.ts", `import { getEnv } from "../server/env.server";\nexport const x = getEnv;\n`),
    ).toHaveLength(1);
  });

  it("keeps components and server below features, through the alias or a relative path", async () => {
    expect(await boundaryErrors("app/components/probe.tsx", `import { cn } from "~/lib/utils";\nexport const x = cn;\n`)).toEqual([]);
    expect(
      await boundaryErrors(
        "app/components/probe.tsx",
        `import { NAV_LINKS } from "~/features/layout/site-links";\nexport const x = NAV_LINKS;\n`,
      ),
    ).toEqual([expect.stringContaining("components and server sit below features")]);
    expect(
      await boundaryErrors(
        "app/server/probe.server.ts",
        `import { createUser } from "../features/users/users.server";\nexport const x = createUser;\n`,
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        "app/server/probe.server.ts",
        `import { accountEmailSchema } from "~/lib/email";\nexport const x = accountEmailSchema;\n`,
      ),
    ).toEqual([]);
  });

  it("lets routes use features, and nothing import a route", async () => {
    expect(
      await boundaryErrors(
        "app/routes/probe.tsx",
        `import { NAV_LINKS } from "~/features/layout/site-links";\nexport const x = NAV_LINKS;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors("app/features/pages/probe.ts", `import { loader } from "~/routes/home";\nexport const x = loader;\n`),
    ).toEqual([expect.stringContaining("Nothing imports a route module")]);
    expect(await boundaryErrors("cli/probe.ts", `import { loader } from "../app/routes/home";\nexport const x = loader;\n`)).toHaveLength(
      1,
    );
  });
});

describe("the lint config refuses import loops and a feature's private modules", () => {
  // A planted module replaces a real one: settings.server.ts imports share-images.server.ts, so a
  // share-images module that reads the settings back closes a loop between the two features.
  const loop = `import { readSiteSettings } from "~/features/settings/settings.server";\nexport const x = readSiteSettings;\n`;

  it("fails on a loop between two features", async () => {
    expect(await ruleErrors("import-x/no-cycle", "app/features/share-images/share-images.server.ts", loop)).toEqual([
      expect.stringContaining("Dependency cycle"),
    ]);
    // The same import from a feature settings does not depend on is no loop.
    expect(await ruleErrors("import-x/no-cycle", "app/features/contact/probe.server.ts", loop)).toEqual([]);
  });

  it("fails on a loop inside the CLI and the server", async () => {
    // cli/commands.ts imports cli/backup-commands.ts.
    const back = `import { COMMANDS } from "./commands";\nexport const x = COMMANDS;\n`;
    expect(await ruleErrors("import-x/no-cycle", "cli/backup-commands.ts", back)).toHaveLength(1);
    // server/app.ts imports server/request-guards.ts.
    const up = `import { app } from "./app";\nexport const x = app;\n`;
    expect(await ruleErrors("import-x/no-cycle", "server/request-guards.ts", up)).toHaveLength(1);
  });

  it("lets a feature use another's public modules only", async () => {
    expect(
      await boundaryErrors(
        "app/features/contact/probe.ts",
        `import { POST_MESSAGES } from "~/features/posts/write/post-schema";\nexport const x = POST_MESSAGES;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        "app/features/contact/probe.ts",
        `import { renderMarkdown } from "~/features/posts/content/markdown.server";\nexport const x = renderMarkdown;\n`,
      ),
    ).toEqual([expect.stringContaining("through its public modules")]);
    expect(
      await boundaryErrors(
        "app/features/contact/probe.ts",
        `import { SiteHeader } from "../layout/site-header";\nexport const x = SiteHeader;\n`,
      ),
    ).toHaveLength(1);
    // Inside a feature, and from a route, any module may be used.
    expect(
      await boundaryErrors(
        "app/features/posts/probe.ts",
        `import { renderMarkdown } from "./content/markdown.server";\nexport const x = renderMarkdown;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        "app/routes/probe.tsx",
        `import { renderMarkdown } from "~/features/posts/content/markdown.server";\nexport const x = renderMarkdown;\n`,
      ),
    ).toEqual([]);
  });
});

describe("the lint config keeps test files' temporary directories in tempDir()", () => {
  const complaints = (file: string, source: string) => ruleErrors("no-restricted-syntax", file, source);
  it("refuses mkdtemp in a test file, however it is imported", async () => {
    const made = [
      `import fs from "node:fs";\nexport const dir = fs.mkdtempSync("/tmp/x-");\n`,
      `import { mkdtemp } from "node:fs/promises";\nexport const dir = await mkdtemp("/tmp/x-");\n`,
    ];
    for (const source of made) {
      expect(await complaints("tests/integration/probe.test.ts", source)).toEqual([expect.stringContaining("tempDir()")]);
      expect(await complaints("app/server/probe.server.test.ts", source)).toHaveLength(1);
    }
  });

  it("lets the helper, the application and scripts make their own", async () => {
    const source = `import fs from "node:fs";\nexport const dir = fs.mkdtempSync("/tmp/x-");\n`;
    for (const file of ["tests/helpers/probe.ts", "app/server/probe.server.ts", "scripts/probe.ts"])
      expect(await complaints(file, source)).toEqual([]);
  });
});
