import fs from "node:fs";
import { prepareTemplateDataDir } from "./helpers/server";

/**
 * Seeds the data directory every worker's server starts from a copy of (see helpers/server.ts); each
 * worker also runs its own SMTP server, so specs wait for mail from their own server only.
 */
export default function globalSetup(): () => void {
  const dir = prepareTemplateDataDir();
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
