import type { Transporter } from "nodemailer";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

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
  /** Shown as the sender's name (the site name from the settings) with MAIL_FROM's address. */
  senderName?: string;
}

/** The address part of MAIL_FROM ("Portfolio <no-reply@x>" → "no-reply@x"). */
export function mailFromAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

export type MailResult = { delivered: true; messageId: string } | { delivered: false; reason: "not-configured" };

let transporter: Transporter | undefined;
let transporterUrl: string | undefined;

/** nodemailer is loaded with the first email sent: a site without SMTP_URL never loads it. */
async function getTransporter(url: string): Promise<Transporter> {
  if (!transporter || transporterUrl !== url) {
    const { default: nodemailer } = await import("nodemailer");
    transporter = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transporterUrl = url;
  }
  return transporter;
}

/**
 * Sends one email over SMTP_URL. Without SMTP_URL nothing is sent: the message is logged and the
 * result says so, so callers can keep it for later. SMTP errors are thrown to the caller.
 */
export async function sendMail(message: MailMessage): Promise<MailResult> {
  const env = getEnv();
  if (!env.SMTP_URL) {
    logger.info({ to: message.to, subject: message.subject }, "SMTP_URL not set; email not sent");
    return { delivered: false, reason: "not-configured" };
  }
  const { senderName, ...rest } = message;
  const from = senderName ? { name: senderName, address: mailFromAddress(env.MAIL_FROM) } : env.MAIL_FROM;
  const info = await (await getTransporter(env.SMTP_URL)).sendMail({ from, ...rest });
  return { delivered: true, messageId: String(info.messageId) };
}
