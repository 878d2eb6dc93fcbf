import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Html } from "@react-email/html";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { render } from "@react-email/render";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import { EMAIL_COLOURS } from "./email-html.server";

/** What every email of the site shows around its content. */
export interface EmailFrame {
  siteName: string;
  /** Absolute URL of the site's logo, or null. */
  logoUrl: string | null;
  /** The site's address (the header links to it). */
  siteUrl: string;
  /** Button and link colour (#rrggbb). */
  accentColor: string;
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * Dark-mode mail clients: Apple Mail and others honour prefers-color-scheme; Outlook.com and the
 * Outlook apps rewrite colours themselves and mark the body with data-ogsc/data-ogsb, which the
 * same rules follow. The light colours are inline (clients that drop <style> still get them).
 */
const DARK_MODE_CSS = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .email-body { background-color: #09090b !important; }
  .email-card { background-color: #18181b !important; }
  .email-text, .email-text p, .email-text li, .email-text h1, .email-text h2, .email-text h3, .email-text td, .email-text th { color: #f4f4f5 !important; }
  .email-muted { color: #a1a1aa !important; }
  .email-code { background-color: #27272a !important; color: #f4f4f5 !important; }
}
[data-ogsc] .email-text, [data-ogsc] .email-text p { color: #f4f4f5 !important; }
[data-ogsc] .email-muted { color: #a1a1aa !important; }
[data-ogsb] .email-body { background-color: #09090b !important; }
[data-ogsb] .email-card { background-color: #18181b !important; }
@media only screen and (max-width: 620px) {
  .email-card { padding: 20px 16px !important; }
}
`;

/** The one layout of the site's emails: header with logo and name, a card with the content, a footer. */
export function EmailLayout({
  frame,
  preview,
  footer,
  children,
}: {
  frame: EmailFrame;
  preview: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{DARK_MODE_CSS}</style>
      </Head>
      <Preview>{preview}</Preview>
      <Body className="email-body" style={{ backgroundColor: EMAIL_COLOURS.background, margin: 0, padding: "24px 0", fontFamily: FONT }}>
        <Container style={{ maxWidth: "600px", width: "100%", margin: "0 auto" }}>
          <Section style={{ padding: "0 16px 16px" }}>
            <Link
              href={frame.siteUrl}
              className="email-text"
              style={{ color: EMAIL_COLOURS.text, textDecoration: "none", fontWeight: 600, fontSize: "16px" }}
            >
              {frame.logoUrl ? (
                <Img
                  src={frame.logoUrl}
                  alt=""
                  width="32"
                  height="32"
                  style={{ display: "inline-block", verticalAlign: "middle", marginRight: "8px", borderRadius: "6px" }}
                />
              ) : null}
              <span style={{ verticalAlign: "middle" }}>{frame.siteName}</span>
            </Link>
          </Section>
          <Section
            className="email-card email-text"
            style={{ backgroundColor: EMAIL_COLOURS.card, borderRadius: "8px", padding: "32px", color: EMAIL_COLOURS.text }}
          >
            {children}
          </Section>
          <Section style={{ padding: "16px" }}>
            <Text className="email-muted" style={{ color: EMAIL_COLOURS.muted, fontSize: "12px", lineHeight: "1.5", margin: 0 }}>
              {footer}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A button in the accent colour. */
export function EmailButton({ href, accentColor, children }: { href: string; accentColor: string; children: ReactNode }) {
  return (
    <Button
      href={href}
      style={{
        backgroundColor: accentColor,
        color: "#ffffff",
        borderRadius: "6px",
        padding: "12px 20px",
        fontWeight: 600,
        fontSize: "15px",
        textDecoration: "none",
        display: "inline-block",
      }}
    >
      {children}
    </Button>
  );
}

export interface NewsletterPost {
  title: string;
  url: string;
  category: string;
  excerpt: string | null;
  /** Absolute URL, or null. */
  coverUrl: string | null;
  coverAlt: string | null;
  /** Email-safe HTML of the whole post (emailSafeHtml), or null to send the excerpt. */
  bodyHtml: string | null;
}

/** A post sent to a subscriber. */
export function NewsletterEmail({
  frame,
  post,
  links,
}: {
  frame: EmailFrame;
  post: NewsletterPost;
  links: { unsubscribeUrl: string; manageUrl: string };
}) {
  return (
    <EmailLayout
      frame={frame}
      preview={post.excerpt ?? post.title}
      footer={
        <>
          You receive this because you subscribed to {post.category} posts of {frame.siteName}.{" "}
          <Link href={links.manageUrl} style={{ color: frame.accentColor }}>
            Manage your subscription
          </Link>{" "}
          ·{" "}
          <Link href={links.unsubscribeUrl} style={{ color: frame.accentColor }}>
            Unsubscribe
          </Link>
        </>
      }
    >
      {post.coverUrl ? (
        <Img
          src={post.coverUrl}
          alt={post.coverAlt ?? ""}
          width="536"
          style={{ display: "block", width: "100%", maxWidth: "100%", height: "auto", borderRadius: "6px", marginBottom: "24px" }}
        />
      ) : null}
      <Heading as="h1" style={{ fontSize: "26px", lineHeight: "1.25", margin: "0 0 16px" }}>
        {post.title}
      </Heading>
      {post.bodyHtml ? (
        <div dangerouslySetInnerHTML={{ __html: post.bodyHtml }} />
      ) : post.excerpt ? (
        <Text style={{ fontSize: "16px", lineHeight: "1.6", margin: "0 0 24px" }}>{post.excerpt}</Text>
      ) : null}
      <Section style={{ marginTop: "8px" }}>
        <EmailButton href={post.url} accentColor={frame.accentColor}>
          Read on the site
        </EmailButton>
      </Section>
    </EmailLayout>
  );
}

/** A short notice (confirmation, reminder): paragraphs, an optional button, a closing line. */
export function NoticeEmail({
  frame,
  preview,
  paragraphs,
  action,
  closing,
}: {
  frame: EmailFrame;
  preview: string;
  paragraphs: string[];
  action?: { label: string; href: string };
  closing?: string;
}) {
  return (
    <EmailLayout frame={frame} preview={preview} footer={<>{frame.siteName}</>}>
      {paragraphs.map((p) => (
        <Text key={p} style={{ fontSize: "16px", lineHeight: "1.6", margin: "0 0 16px" }}>
          {p}
        </Text>
      ))}
      {action ? (
        <Section style={{ margin: "8px 0 16px" }}>
          <EmailButton href={action.href} accentColor={frame.accentColor}>
            {action.label}
          </EmailButton>
        </Section>
      ) : null}
      {action ? (
        <Text className="email-muted" style={{ fontSize: "13px", color: EMAIL_COLOURS.muted, margin: "0 0 16px", wordBreak: "break-all" }}>
          {action.href}
        </Text>
      ) : null}
      {closing ? <Text style={{ fontSize: "14px", lineHeight: "1.6", margin: 0 }}>{closing}</Text> : null}
    </EmailLayout>
  );
}

/** The HTML part and the plain-text part of one email. */
export async function renderEmail(email: ReactNode): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([
    render(email),
    render(email, {
      plainText: true,
      htmlToTextOptions: {
        wordwrap: 78,
        selectors: [
          // The preview line and the logo are for inboxes and eyes, not for the text part.
          { selector: "img", format: "skip" },
          { selector: "[data-skip-in-text=true]", format: "skip" },
          { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
          { selector: "h1", options: { uppercase: false } },
          { selector: "h2", options: { uppercase: false } },
          { selector: "h3", options: { uppercase: false } },
        ],
      },
    }),
  ]);
  return { html, text };
}
