import fs from "node:fs";
import { z } from "zod";
import { logger } from "./logger.server";

/** What scripts/build-enhance.mjs wrote beside the build. */
const enhanceManifest = z.object({ entry: z.string().startsWith("/assets/"), imports: z.array(z.string()) });

const MANIFEST = "build/enhance-manifest.json";
const DEV_ENTRY = "/app/enhance/main.ts";

let entry: string | null | undefined;

/**
 * The address of the page's enhancement script (app/enhance/main.ts): Vite serves the source in
 * development; a production build names its hashed file. Null without a build (then pages have no script).
 */
export function enhanceScriptUrl(): string | null {
  if (import.meta.env.DEV) return DEV_ENTRY;
  if (entry === undefined) {
    try {
      entry = enhanceManifest.parse(JSON.parse(fs.readFileSync(MANIFEST, "utf8"))).entry;
    } catch (error) {
      logger.error({ err: error }, `no enhancement script: ${MANIFEST} is missing or invalid (run npm run build)`);
      entry = null;
    }
  }
  return entry;
}
