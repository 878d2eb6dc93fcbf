import { readBodyUpTo } from "~/server/form.server";

class FeedFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeedFetchError";
  }
}

export interface FetchDocumentOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Checked for the first URL and for every redirect target. */
  isAllowed: (url: URL) => boolean;
  maxRedirects?: number;
}

const ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.8, */*;q=0.1";

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new FeedFetchError(`response too large (${declared} bytes)`);
  const bytes = await readBodyUpTo(response, maxBytes, { cancelOnOverflow: true });
  if (!bytes) throw new FeedFetchError(`response larger than ${maxBytes} bytes`);
  return new TextDecoder("utf-8").decode(bytes);
}

/**
 * GETs a document with one deadline for the whole exchange (connect, redirects, body) and a size cap.
 * Redirects are followed by hand so each target is checked against the allow rule.
 */
export async function fetchDocument(url: string, options: FetchDocumentOptions): Promise<{ body: string; url: string }> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = new URL(url);
  try {
    for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
      if (!options.isAllowed(current)) throw new FeedFetchError(`address not allowed: ${current.origin}`);
      const response = await fetch(current, {
        signal,
        redirect: "manual",
        headers: { accept: ACCEPT, "user-agent": "7fs-portfolio-feed-reader/1.0" },
      });
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get("location");
        await response.body?.cancel();
        if (!location) throw new FeedFetchError(`redirect without a location (${response.status})`);
        current = new URL(location, current);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FeedFetchError(`HTTP ${response.status}`);
      }
      return { body: await readLimited(response, options.maxBytes), url: current.toString() };
    }
    throw new FeedFetchError("too many redirects");
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    if (signal.aborted) throw new FeedFetchError(`timed out after ${options.timeoutMs} ms`);
    throw new FeedFetchError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
