import fs from "node:fs";
import path from "node:path";
import { parseMail, startSmtpServer } from "../helpers/smtp";
import { mailDir } from "./helpers/mailbox";

/**
 * A real SMTP server for the whole e2e run, on the port playwright.config.ts gives the web server as
 * SMTP_URL. Each message is written as JSON to E2E_MAIL_DIR, where specs wait for it.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = mailDir();
  fs.mkdirSync(dir, { recursive: true });
  let counter = 0;
  const server = await startSmtpServer({
    port: Number(process.env.E2E_SMTP_PORT),
    onMessage: (mail) => {
      counter += 1;
      fs.writeFileSync(path.join(dir, `${Date.now()}-${counter}.json`), JSON.stringify(parseMail(mail)));
    },
  });
  return server.close;
}
