import fs from "node:fs";
import path from "node:path";

/** One message caught by the e2e SMTP server (tests/e2e/global-setup.ts). */
export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
}

/** Where the e2e SMTP server writes what it receives; set once by playwright.config.ts for every process. */
export function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set (see playwright.config.ts)");
  return dir;
}

/** Decodes a quoted-printable body (nodemailer wraps long lines such as links this way). */
export function decodeQuotedPrintable(input: string): string {
  const bytes = input.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Splits a raw message into subject and decoded text body (single-part text messages). */
export function parseRawMail(raw: string, to: string[]): CaughtMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = /^subject:\s*(.*)$/im.exec(unfolded)?.[1]?.trim() ?? "";
  const encoding = /^content-transfer-encoding:\s*(.*)$/im.exec(unfolded)?.[1]?.trim().toLowerCase();
  const text =
    encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { to, subject, text };
}

/** Waits for a message to `recipient` that arrived after `since` (ms), or fails after `timeoutMs`. */
export async function waitForMail(recipient: string, since: number, timeoutMs = 15_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(mailDir()) ? fs.readdirSync(mailDir()).filter((f) => f.endsWith(".json")).sort() : [];
    for (const file of files) {
      if (Number(file.split("-")[0]) < since) continue;
      const mail = JSON.parse(fs.readFileSync(path.join(mailDir(), file), "utf8")) as CaughtMail;
      if (mail.to.includes(recipient.toLowerCase())) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email to ${recipient} within ${timeoutMs} ms`);
}
