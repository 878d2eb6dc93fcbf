import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { mailDir, parseRawMail } from "./helpers/mailbox";

/**
 * A real SMTP server for the whole e2e run, on the port playwright.config.ts gives the web server as
 * SMTP_URL. Each message is written as JSON to E2E_MAIL_DIR, where specs wait for it.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env.E2E_SMTP_PORT);
  const dir = mailDir();
  fs.mkdirSync(dir, { recursive: true });
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const mail = parseRawMail(Buffer.concat(chunks).toString("utf8"), to);
        counter += 1;
        fs.writeFileSync(path.join(dir, `${Date.now()}-${counter}.json`), JSON.stringify(mail));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
