import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });

/** Lints one in-memory module as if it lived at `file`, and returns the import-direction complaints. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  // A parse error or a missing rule would hide the rule under test; fail loudly instead.
  expect(messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return messages.filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

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
