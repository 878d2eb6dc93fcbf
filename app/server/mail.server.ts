import type { Transporter } from "nodemailer";
import type { Db } from "./db/client.server";
import { getMailConfig, mailFromAddress, type MailConfig } from "./mail-settings.server";

export { mailFromAddress };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (e.g. List-Unsubscribe); values must be single lines. */
  headers?: Record<string, string>;
  /** A calendar invite (text/calendar with its METHOD), shown by mail apps as an event to add or update. */
  icalEvent?: { method: string; filename: string; content: string };
  /** The sender's name when the mail settings name none (the site name). */
  senderName?: string;
}

export type MailResult = { delivered: true; messageId: string; response: string } | { delivered: false; reason: "not-configured" };

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

let transporter: { key: string; transporter: Promise<Transporter> } | undefined;

/** nodemailer's options for a config; the key identifies it (it holds the password: never log it). */
function transportOptions(config: MailConfig) {
  if (config.source === "env") return { key: `env\0${config.url}`, options: config.url };
  const options = {
    host: config.host,
    port: config.port,
    secure: config.security === "tls",
    requireTLS: config.security === "starttls",
    ignoreTLS: config.security === "none",
    ...(config.user ? { auth: { user: config.user, pass: config.password } } : {}),
  };
  return { key: JSON.stringify(options), options };
}

/** nodemailer is loaded with the first email sent: a site without mail never loads it. */
async function getTransporter(config: MailConfig): Promise<Transporter> {
  const { key, options } = transportOptions(config);
  if (transporter?.key !== key) {
    const previous = transporter;
    const created = import("nodemailer").then(({ default: nodemailer }) =>
      typeof options === "string" ? nodemailer.createTransport(options, TIMEOUTS) : nodemailer.createTransport({ ...options, ...TIMEOUTS }),
    );
    transporter = { key, transporter: created };
    void previous?.transporter.then((t) => t.close()).catch(() => undefined);
  }
  return transporter.transporter;
}

/**
 * Sends one email now with the given config (the mail settings' or SMTP_URL). SMTP errors are
 * thrown to the caller; describeSmtpError turns them into words. Only the outbox and the
 * settings' test email call this: everything else enqueues (mail-outbox.server.ts).
 */
export async function sendWithConfig(config: MailConfig, message: MailMessage): Promise<{ messageId: string; response: string }> {
  const { senderName, replyTo, ...rest } = message;
  const name = config.senderName || senderName;
  const from = name ? { name, address: config.senderAddress } : config.senderAddress;
  const reply = replyTo ?? (config.replyTo || undefined);
  const info = await (await getTransporter(config)).sendMail({ from, ...rest, ...(reply ? { replyTo: reply } : {}) });
  return { messageId: String(info.messageId), response: String(info.response ?? "") };
}

/** Connects to the configured SMTP server and signs in, sending nothing (the doctor's mail check). */
export async function verifyMailServer(config: MailConfig): Promise<void> {
  await (await getTransporter(config)).verify();
}

/** Sends one email with the current config; without one nothing is sent and the result says so. */
export async function sendMail(db: Db, message: MailMessage): Promise<MailResult> {
  const config = await getMailConfig(db);
  if (!config) return { delivered: false, reason: "not-configured" };
  return { delivered: true, ...(await sendWithConfig(config, message)) };
}

interface SmtpErrorLike {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  command?: unknown;
  message?: unknown;
}

/**
 * An SMTP failure in words a person can act on (shown in the mail log and by "Send a test email"):
 * the kind of problem first, the server's own answer after it. Never includes the password.
 */
export function describeSmtpError(error: unknown): string {
  const e = (typeof error === "object" && error !== null ? error : {}) as SmtpErrorLike;
  const code = typeof e.code === "string" ? e.code : "";
  const message = (
    String(e.message ?? error)
      .replace(/\/\/[^\s/:@]+:[^\s/@]+@/g, "//***@")
      .split("\n")[0] ?? ""
  ).slice(0, 300);
  const answer = typeof e.response === "string" ? e.response.split("\n")[0]?.slice(0, 200) : undefined;
  const said = answer ? ` The server said: ${answer}` : message ? ` (${message})` : "";
  if (code === "EAUTH")
    return `The SMTP server did not accept the user name or password: check them (some providers need an app password).${said}`;
  if (code === "ENOAUTH") return `The SMTP server asks for a user name and password: enter them.${said}`;
  if (/ECONNREFUSED/.test(message) || code === "ECONNREFUSED")
    return `Connection refused: nothing answers at that host and port. Check the host, the port and any firewall.${said}`;
  if (/ENOTFOUND|EAI_AGAIN/.test(message) || code === "EDNS") return `The SMTP host was not found: check its name.${said}`;
  if (code === "ETIMEDOUT" || /timed? ?out/i.test(message))
    return `The SMTP server did not answer in time: check the host and port (and that the firewall lets the connection out).${said}`;
  if (code === "ETLS" || /tls|ssl|wrong version number|certificate|self[- ]signed/i.test(message))
    return `The secure connection (TLS) failed: check the security setting (TLS is usually port 465, STARTTLS port 587) and the server's certificate.${said}`;
  if (code === "EENVELOPE")
    return `The SMTP server refused the sender or the recipient address: check the sender address (many servers only accept their own domain).${said}`;
  if (typeof e.responseCode === "number" && e.responseCode >= 400 && e.responseCode < 500)
    return `The SMTP server refused the message for now (it will be tried again).${said}`;
  if (typeof e.responseCode === "number" && e.responseCode >= 500) return `The SMTP server rejected the message.${said}`;
  return `Sending failed${message ? `: ${message}` : "."}`;
}
