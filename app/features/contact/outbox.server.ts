import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { readSiteSettings } from "~/features/settings/settings.server";

/** A contact message as its email and the inbox show it. */
export const CONTACT_MESSAGE_COLUMNS = {
  id: contactMessages.id,
  name: contactMessages.name,
  email: contactMessages.email,
  message: contactMessages.message,
  createdAt: contactMessages.createdAt,
};

/**
 * A contact message's email to the owner, delivered by the mail outbox (server/mail-outbox.server.ts):
 * the message is stored first (contact.server.ts), with its outbox row in the same transaction, so
 * an SMTP outage never loses it. Delivery is at-least-once: the email quotes the message id so a
 * rare duplicate is recognisable.
 */
export const CONTACT_NO_RECIPIENT =
  "Not sent: there is no address to forward contact messages to (CONTACT_TO or the site's contact email).";

/** Where contact messages go: CONTACT_TO, else the contact email of the site settings ("" for none). */
export async function contactRecipient(db: Db): Promise<string> {
  return getEnv().CONTACT_TO ?? (await readSiteSettings(db)).contactEmail;
}

export const contactMail = defineMailKind("contact.forward", {
  label: "Contact message",
  schema: z.object({ messageId: z.uuid() }),
  maxAttempts: getEnv().CONTACT_MAX_ATTEMPTS,
  retryBaseMs: getEnv().CONTACT_RETRY_BASE_SECONDS * 1000,
  async render({ messageId }, { db }) {
    const [message] = await db
      .select(CONTACT_MESSAGE_COLUMNS)
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId));
    if (!message) return { skip: "Not sent: the message was deleted." };
    // The owner's current address, so a retry after fixing it goes to the right place.
    const to = await contactRecipient(db);
    if (!to) return { skip: CONTACT_NO_RECIPIENT };
    const { siteName } = await readSiteSettings(db);
    return { ...contactEmail(to, message), senderName: siteName };
  },
});

/** The email to the owner: reply-to is the visitor, so answering goes straight back to them. */
function contactEmail(to: string, message: { id: string; name: string; email: string; message: string; createdAt: Date }) {
  const oneLineName = message.name.replace(/[\r\n]+/g, " ");
  return {
    to,
    replyTo: `"${oneLineName.replace(/["\\]/g, "")}" <${message.email}>`,
    subject: `Contact form: message from ${oneLineName}`,
    text: [
      `Name: ${message.name}`,
      `Email: ${message.email}`,
      `Received: ${message.createdAt.toISOString()}`,
      `Message id: ${message.id}`,
      "",
      message.message,
      "",
      "Reply to this email to answer the visitor.",
    ].join("\n"),
  };
}
