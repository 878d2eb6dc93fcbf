import fs from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { importWordpressComments } from "~/features/imports/comments-import.server";
import { importGhost } from "~/features/imports/ghost.server";
import { importSupabase } from "~/features/imports/supabase.server";
import { ValidationError } from "~/server/errors.server";
import type { CliContext } from "./io";

const tagMapFile = z.record(z.string(), z.string());

function readTagMap(file: string): Record<string, string> {
  if (!fs.existsSync(file)) throw new ValidationError(`No such file: ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    throw new ValidationError(`${file} is not valid JSON: expected {"tag": "Category", …}`);
  }
  const parsed = tagMapFile.safeParse(data);
  if (!parsed.success) throw new ValidationError(`${file} must map tag names to categories: {"tag": "Category", …}`);
  return parsed.data;
}

function parseTagFlags(flags: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const at = flag.lastIndexOf("=");
    if (at <= 0 || at === flag.length - 1) throw new ValidationError(`--tag expects TAG=CATEGORY, not '${flag}'`);
    out[flag.slice(0, at)] = flag.slice(at + 1);
  }
  return out;
}

const SOURCE_ARG: Record<string, string> = { "import-ghost": "export.json", "import-wordpress-comments": "export.xml" };

/** import-supabase <dir>, import-ghost <export.json> and import-wordpress-comments <export.xml>, with their options. */
export async function runImportCommand(argv: string[], { database, io }: CliContext): Promise<void> {
  const db = database.db;
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      as: { type: "string" },
      map: { type: "string" },
      tag: { type: "string", multiple: true },
      "default-category": { type: "string" },
      "ghost-url": { type: "string" },
    },
  });
  const [command, source] = positionals;
  if (!source) throw new ValidationError(`Missing the export to import: npm run cli -- ${command} <${SOURCE_ARG[command ?? ""] ?? "dir"}>`);
  const report =
    command === "import-ghost"
      ? await importGhost(db, source, {
          as: values.as,
          tagMap: { ...(values.map ? readTagMap(values.map) : {}), ...parseTagFlags(values.tag ?? []) },
          defaultCategory: values["default-category"],
          ghostUrl: values["ghost-url"],
        })
      : command === "import-wordpress-comments"
        ? await importWordpressComments(db, source)
        : await importSupabase(db, source, { as: values.as });
  for (const line of report.lines()) io.out(line);
}
