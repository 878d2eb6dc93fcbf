import { cn } from "~/lib/utils";

/**
 * A post's content as the server rendered and sanitized it (markdown.server.ts); the browser only
 * shows the HTML, so no Markdown engine ever reaches a public bundle.
 */
export function PostBody({ html, className }: { html: string; className?: string }) {
  return <div className={cn("markdown-body", className)} data-testid="post-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
