import type { IncomingMessage } from "node:http";

/**
 * The request-path half of counting (docs/decisions/0047-visitor-statistics.md): a page view is
 * noted in memory — a few header reads and one array push, no database, no hashing — and the flush
 * (ingest.server.ts) classifies, hashes and writes the batch every few seconds. HEAD, prefetches and
 * requests without a User-Agent are never noted; bots, Do Not Track and referrer spam are dropped at
 * the flush. Past the per-minute cap views are only counted as dropped (the report shows sampling).
 */
export interface PendingView {
  at: number;
  /** The request target (path and query). */
  url: string;
  host: string;
  referrer: string | undefined;
  userAgent: string;
  /** The socket's address and X-Forwarded-For: the client address is worked out at the flush. */
  remote: string | undefined;
  forwarded: string | undefined;
  doNotTrack: boolean;
}

interface CollectorState {
  enabled: boolean;
  capPerMinute: number;
  minute: number;
  notedThisMinute: number;
  pending: PendingView[];
  /** Views dropped by the cap, per minute (ms since the epoch). */
  dropped: Map<number, number>;
}

const holder = globalThis as typeof globalThis & { __analyticsCollector?: CollectorState };
const state = (holder.__analyticsCollector ??= {
  enabled: false,
  capPerMinute: 60_000,
  minute: 0,
  notedThisMinute: 0,
  pending: [],
  dropped: new Map(),
});

/** Turns noting on or off (start-up reads ANALYTICS and the cap). */
export function configureCollector(options: { enabled: boolean; capPerMinute: number }): void {
  state.enabled = options.enabled;
  state.capPerMinute = options.capPerMinute;
}

export function collectorEnabled(): boolean {
  return state.enabled;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Notes one anonymous view of a public HTML page. The caller has decided the response is such a page
 * (a 200 or 304 of a public page, no session).
 */
export function notePageView(req: IncomingMessage): void {
  if (!state.enabled || req.method !== "GET") return;
  const headers = req.headers;
  const userAgent = headers["user-agent"];
  if (!userAgent) return;
  const purpose = headers["sec-purpose"] ?? headers.purpose ?? headers["x-purpose"] ?? headers["x-moz"];
  if (purpose && /prefetch|prerender|preview/i.test(header(purpose) ?? "")) return;
  const now = Date.now();
  const minute = now - (now % 60_000);
  if (minute !== state.minute) {
    state.minute = minute;
    state.notedThisMinute = 0;
  }
  if (state.notedThisMinute >= state.capPerMinute) {
    state.dropped.set(minute, (state.dropped.get(minute) ?? 0) + 1);
    return;
  }
  state.notedThisMinute++;
  state.pending.push({
    at: now,
    url: req.url ?? "/",
    host: header(headers.host) ?? "",
    referrer: header(headers.referer),
    userAgent,
    remote: req.socket.remoteAddress,
    forwarded: header(headers["x-forwarded-for"]),
    doNotTrack: headers.dnt === "1" || headers["sec-gpc"] === "1",
  });
}

/** Everything noted since the last call (the flush takes it). */
export function takePendingViews(): { views: PendingView[]; dropped: Map<number, number> } {
  const taken = { views: state.pending, dropped: state.dropped };
  state.pending = [];
  state.dropped = new Map();
  return taken;
}

/** Views waiting for the next flush. */
export function pendingViewCount(): number {
  return state.pending.length;
}
