import { postPath, type Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { mailFromAddress, type MailMessage } from "~/server/mail.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSafeHtml } from "./email-html.server";
import type { EmailFrame } from "./email-template.server";
import { readNewsletterSettings } from "./newsletter-settings.server";
import type { NewsletterSettings } from "./newsletter-settings";

const absoluteUrl = (url: string | null | undefined, base: string): string | null => {
  if (!url) return null;
  try {
    return new URL(url, base).href;
  } catch {
    return null;
  }
};

/**
 * The React Email templates and renderer, loaded with the first email (~15–25 MB resident that a
 * server which sends no newsletter or notice would otherwise carry from start-up).
 */
function emailTemplates(): Promise<typeof import("./email-template.server")> {
  return import("./email-template.server");
}

/** What every email shows around its content: the site's name, logo and accent colour. */
export async function emailFrame(db: Db, newsletter?: NewsletterSettings): Promise<EmailFrame> {
  const base = getEnv().publicUrl;
  const [site, settings] = await Promise.all([readSiteSettings(db), newsletter ?? readNewsletterSettings(db)]);
  return { siteName: site.siteName, logoUrl: absoluteUrl(site.logoUrl, base), siteUrl: `${base}/`, accentColor: settings.accentColor };
}

/** A notice (confirmation, reminder) in the site's template, with its plain-text part. */
export async function noticeMessage(
  db: Db,
  message: { to: string; subject: string; paragraphs: string[]; action?: { label: string; href: string }; closing?: string },
): Promise<MailMessage> {
  const frame = await emailFrame(db);
  const { to, subject, ...content } = message;
  const { NoticeEmail, renderEmail } = await emailTemplates();
  const { html, text } = await renderEmail(<NoticeEmail frame={frame} preview={content.paragraphs[0] ?? subject} {...content} />);
  return { to, subject, html, text, senderName: frame.siteName };
}

export interface NewsletterPostRow {
  id: string;
  title: string;
  slug: string;
  category: Category;
  excerpt: string | null;
  contentHtml: string | null;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
}

/**
 * The email of one post to one address: the template (excerpt or the whole post, as the settings
 * say), its plain-text part, and the RFC 8058 headers — the one-click address takes a POST with no
 * sign-in; the mailto: alternative goes to the owner for manual handling.
 */
export async function newsletterMessage(
  db: Db,
  post: NewsletterPostRow,
  to: string,
  links: { unsubscribeUrl: string; manageUrl: string },
  /** Names the subscriber in the mailto: request (their id, never the address). */
  reference: string,
  subjectPrefix = "",
): Promise<MailMessage> {
  const env = getEnv();
  const settings = await readNewsletterSettings(db);
  const frame = await emailFrame(db, settings);
  const excerpt = post.excerpt?.trim() || null;
  const { NewsletterEmail, renderEmail } = await emailTemplates();
  const { html, text } = await renderEmail(
    <NewsletterEmail
      frame={frame}
      links={links}
      post={{
        title: post.title,
        url: `${env.publicUrl}${postPath(post.category, post.slug)}`,
        category: post.category,
        excerpt,
        coverUrl: absoluteUrl(post.featuredImageUrl, env.publicUrl),
        coverAlt: post.featuredImageAlt,
        bodyHtml:
          settings.content === "full" && post.contentHtml ? emailSafeHtml(post.contentHtml, env.publicUrl, frame.accentColor) : null,
      }}
    />,
  );
  const mailto = `mailto:${env.CONTACT_TO ?? mailFromAddress(env.MAIL_FROM)}?subject=${encodeURIComponent(`unsubscribe ${reference}`)}`;
  return {
    to,
    subject: `${subjectPrefix}${post.title}`,
    html,
    text,
    senderName: frame.siteName,
    headers: {
      "List-Unsubscribe": `<${links.unsubscribeUrl}>, <${mailto}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
