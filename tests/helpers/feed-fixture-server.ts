import http from "node:http";
import type { AddressInfo } from "node:net";
import { readSiteSettings, saveSiteSettings } from "~/features/settings/settings.server";
import { settingsFormValues } from "~/features/settings/settings-schema";
import type { Db } from "~/server/db/client.server";

/** A real local HTTP server standing in for the external feeds (newsletter, blog, knowledge base). */
export interface FeedFixtureServer {
  url: string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  /** Replaces the body served at /mutable. */
  setMutable(body: string): void;
  /** The gate of `/gated?gate=<name>` (made on first use): its requests wait until the test opens it. */
  gate(name: string): FeedGate;
  close(): Promise<void>;
}

/**
 * A feed that answers when the test says so: ordering assertions ("the page's content came before the
 * feed") instead of wall-clock thresholds that a loaded machine breaks.
 */
export interface FeedGate {
  /** Requests held now. */
  readonly waiting: number;
  /** Held requests whose client gave up (closed the connection) before the gate opened. */
  readonly abandoned: number;
  /** Resolves once a request is held. */
  reached(): Promise<void>;
  /** Answers the held requests, and later ones at once, with a feed whose item is GATED_TITLE. */
  open(): void;
}

export const GATED_TITLE = "Released From The Gate";

interface GateState extends FeedGate {
  hold(res: http.ServerResponse): void;
}

function createGate(): GateState {
  const held = new Set<http.ServerResponse>();
  const arrivals: Array<() => void> = [];
  let isOpen = false;
  let abandoned = 0;
  const answer = (res: http.ServerResponse) => send(res, 200, "application/rss+xml", rssWithTitle(GATED_TITLE));
  return {
    get waiting() {
      return held.size;
    },
    get abandoned() {
      return abandoned;
    },
    reached: () => (held.size > 0 ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push(resolve))),
    open() {
      isOpen = true;
      for (const res of held) answer(res);
      held.clear();
    },
    hold(res) {
      if (isOpen) return answer(res);
      held.add(res);
      res.on("close", () => {
        if (held.delete(res)) abandoned += 1;
      });
      for (const resolve of arrivals.splice(0)) resolve();
    },
  };
}

export const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>Weekly Notes</title>
    <link>https://example.test/</link>
    <item>
      <title><![CDATA[Shipping Calm: A Newsletter &amp; More]]></title>
      <description><![CDATA[<p>How we cut <b>cycle time</b> in half &amp; kept the team sane.</p>]]></description>
      <link>https://example.test/p/shipping-calm</link>
      <enclosure url="https://cdn.example.test/shipping.jpg" type="image/jpeg" length="1000"/>
    </item>
    <item>
      <title>Older post</title>
      <description>Older</description>
      <link>https://example.test/p/older</link>
    </item>
  </channel>
</rss>`;

export const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <title>Knowledge Base</title>
  <entry>
    <title type="html">Five Risk Registers That Work</title>
    <link rel="alternate" href="/kb/risk-registers"/>
    <summary>A practical guide to risk registers teams actually update.</summary>
    <media:thumbnail url="/img/risk.png"/>
  </entry>
</feed>`;

export const OG_HTML = `<!doctype html><html><head>
<title>Fallback title</title>
<meta property="og:title" content="Team Playbooks &amp; Templates">
<meta property="og:description" content="Templates for planning, retros and status reports.">
<meta property="og:image" content="/images/playbooks.png">
<meta property="og:url" content="https://blog.example.test/playbooks">
</head><body><h1>Playbooks</h1></body></html>`;

interface FixtureState {
  mutable: string;
  gate(name: string): GateState;
}

const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, server: FixtureState) => void> = {
  "/rss": (_req, res) => send(res, 200, "application/rss+xml", RSS),
  "/feed": (_req, res) => send(res, 200, "application/rss+xml", RSS),
  "/atom": (_req, res) => send(res, 200, "application/atom+xml", ATOM),
  "/og": (_req, res) => send(res, 200, "text/html", OG_HTML),
  "/html-with-feed": (_req, res) =>
    send(
      res,
      200,
      "text/html",
      `<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/atom+xml" href="/atom"></head><body></body></html>`,
    ),
  "/garbage": (_req, res) => send(res, 200, "application/octet-stream", "\u0000\u0001 not a feed {]]> at all"),
  "/plain-html": (_req, res) =>
    send(res, 200, "text/html", "<!doctype html><html><head><title>x</title></head><body>no tags</body></html>"),
  "/bad-item": (_req, res) =>
    send(res, 200, "application/rss+xml", `<rss><channel><item><title>Evil</title><link>javascript:alert(1)</link></item></channel></rss>`),
  "/error": (_req, res) => send(res, 500, "text/plain", "Internal Server Error"),
  "/slow": (_req, res) => {
    const timer = setTimeout(() => send(res, 200, "application/rss+xml", RSS), 5_000);
    res.on("close", () => clearTimeout(timer));
  },
  "/slow-body": (_req, res) => {
    res.writeHead(200, { "content-type": "application/rss+xml" });
    res.write(RSS.slice(0, 50));
    const timer = setTimeout(() => res.end(RSS.slice(50)), 5_000);
    res.on("close", () => clearTimeout(timer));
  },
  "/oversize": (_req, res) => {
    // No content-length: the reader must stop counting bytes itself.
    res.writeHead(200, { "content-type": "application/rss+xml" });
    const chunk = `<!-- ${"x".repeat(64 * 1024)} -->`;
    let sent = 0;
    const pump = () => {
      while (sent < 60 && res.write(chunk)) sent += 1;
      if (sent >= 60) res.end();
      else res.once("drain", pump);
    };
    res.write('<?xml version="1.0"?><rss><channel>');
    pump();
  },
  "/oversize-declared": (_req, res) => {
    res.writeHead(200, { "content-type": "application/rss+xml", "content-length": String(50 * 1024 * 1024) });
    res.end();
  },
  "/redirect-away": (req, res) => {
    // Same server under another host name: a valid feed, so only the host check can refuse it.
    const port = (req.headers.host ?? "").split(":")[1] ?? "80";
    res.writeHead(302, { location: `http://localhost:${port}/rss` });
    res.end();
  },
  "/redirect-home": (_req, res) => {
    res.writeHead(301, { location: "/rss" });
    res.end();
  },
  "/mutable": (_req, res, server) => send(res, 200, "application/rss+xml", server.mutable),
  "/gated": (req, res, server) => server.gate(new URL(req.url ?? "/", "http://localhost").searchParams.get("gate") ?? "").hold(res),
};

function send(res: http.ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export function rssWithTitle(title: string): string {
  return RSS.replace("Shipping Calm: A Newsletter &amp; More", title);
}

export async function startFeedFixtureServer(): Promise<FeedFixtureServer> {
  const hits = new Map<string, number>();
  const gates = new Map<string, GateState>();
  const gate = (name: string): GateState => {
    const found = gates.get(name) ?? createGate();
    gates.set(name, found);
    return found;
  };
  const state: FixtureState = { mutable: rssWithTitle("First version"), gate };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(req, res, state);
    else send(res, 404, "text/plain", "Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    setMutable: (body) => {
      state.mutable = body;
    },
    gate,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Points the feed settings the production build reads from the environment on its first request at
 * the fixtures: the newsletter and knowledge base answer, the blog is the gate "env"; nothing is
 * cached, so every request fetches the feeds anew; a feed may take `timeoutMs`.
 */
export function pointFeedEnvAtFixtures(fixtures: FeedFixtureServer, timeoutMs: number): void {
  process.env.SUBSTACK_URL = `${fixtures.url}/`;
  process.env.TSP_BLOG_URL = `${fixtures.url}/gated?gate=env`;
  process.env.TSP_KB_URL = `${fixtures.url}/atom`;
  process.env.FEED_TIMEOUT_MS = String(timeoutMs);
  process.env.FEED_CACHE_TTL_SECONDS = "0";
  // The fixtures listen on 127.0.0.1, which the outbound guard refuses unless this is set.
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
}

/** Points the site's three feed settings at the fixtures: newsletter RSS, the blog at `blogPath`, knowledge base Atom. */
export async function pointFeedsAtFixtures(db: Db, fixtures: FeedFixtureServer, blogPath: string): Promise<void> {
  const settings = settingsFormValues(await readSiteSettings(db));
  await saveSiteSettings(
    db,
    { id: "test-admin", role: "admin" },
    { ...settings, substackUrl: `${fixtures.url}/`, tspBlogUrl: `${fixtures.url}${blogPath}`, tspKbUrl: `${fixtures.url}/atom` },
  );
}
