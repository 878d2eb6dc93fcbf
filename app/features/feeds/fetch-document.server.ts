import { outboundFetch, type OutboundFetchOptions } from "~/server/outbound-fetch.server";

export type FetchDocumentOptions = Omit<OutboundFetchOptions, "accept" | "userAgent">;

const ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.8, */*;q=0.1";

/** GETs a text document (feed, calendar) through the one outbound guard (app/server/outbound-fetch.server.ts). */
export async function fetchDocument(url: string, options: FetchDocumentOptions): Promise<{ body: string; url: string }> {
  const response = await outboundFetch(url, { ...options, accept: ACCEPT, userAgent: "7fs-portfolio-feed-reader/1.0" });
  return { body: new TextDecoder("utf-8").decode(response.bytes), url: response.url };
}
