import fs from "node:fs";
import path from "node:path";
import { decodeQuotedPrintable, type ParsedMail } from "../../helpers/smtp";

/** Where the e2e SMTP server of this worker writes what it receives; set by the worker's server fixture (helpers/test.ts). */
export function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set (see tests/e2e/helpers/test.ts)");
  return dir;
}

/** Waits for a message to `recipient` that arrived after `since` (ms), or fails after `timeoutMs`. */
export async function waitForMail(recipient: string, since: number, timeoutMs = 15_000): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(mailDir())
      ? fs
          .readdirSync(mailDir())
          .filter((f) => f.endsWith(".json"))
          .sort()
      : [];
    for (const file of files) {
      if (Number(file.split("-")[0]) < since) continue;
      const mail = JSON.parse(fs.readFileSync(path.join(mailDir(), file), "utf8")) as ParsedMail;
      if (mail.to.includes(recipient.toLowerCase())) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email to ${recipient} within ${timeoutMs} ms`);
}

/** Every message to `recipient` that arrived after `since` (ms), oldest first. */
export function mailsTo(recipient: string, since: number): ParsedMail[] {
  if (!fs.existsSync(mailDir())) return [];
  return fs
    .readdirSync(mailDir())
    .filter((f) => f.endsWith(".json") && Number(f.split("-")[0]) >= since)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(mailDir(), f), "utf8")) as ParsedMail)
    .filter((mail) => mail.to.includes(recipient.toLowerCase()));
}

/** The first link in an email that starts with `prefix` (emails are quoted-printable encoded). */
export function linkIn(text: string, prefix: string): string {
  // The stored text is quoted-printable only when the mailer chose that encoding (long lines); decoding
  // plain text would turn a token's "=8D…" into a byte.
  const plain = /=3D|=\r?\n/.test(text) ? decodeQuotedPrintable(text) : text;
  const found = plain.match(new RegExp(`https?://[^\\s"<>]*${prefix.replace(/[?/]/g, "\\$&")}[^\\s"<>]*`))?.[0];
  if (!found) throw new Error(`no ${prefix} link in: ${plain}`);
  return found;
}
