import fc from "fast-check";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createSession } from "~/features/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, makeUser, signedInAs } from "../helpers/factories";
import { formVocabulary } from "../helpers/form-vocabulary";
import { routePatterns } from "../helpers/route-table";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { tableDigests } from "../helpers/table-digests";

/**
 * Property-based fuzzing of the production server: every route of app/routes.ts × every method,
 * with random path parameters, query strings, headers, cookies and bodies, anonymous and as a plain user.
 * Whatever is sent: never a 5xx, never a stack trace in the body, and never a write to staff data (the
 * content version and a fingerprint of every staff-owned table are the same after each route's runs).
 */
/** Runs of each route × method (FUZZ_RUNS=20 for a longer hunt); one keeps the suite near a minute on both databases. */
const RUNS_PER_ROUTE_AND_METHOD = Number(process.env.FUZZ_RUNS ?? 1);
const TEST_TIMEOUT_MS = 180_000;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Tables only staff may change; anonymous visitors and plain users may write elsewhere (rate limits, messages…). */
const STAFF_TABLES = [
  "user",
  "account",
  "user_roles",
  "two_factor",
  "recovery_codes",
  "passkeys",
  "blog_posts",
  "post_redirects",
  "blog_media",
  "post_revisions",
  "post_autosaves",
  "uploads",
  "projects",
  "app_settings",
  "testimonials",
  "content_version",
];

// A stack frame as Node prints it: "at fn (/path/file.js:12:34)" or "at file:///…:1:2".
const STACK_FRAME = /\bat\s+(?:\S+\s+\()?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+\)?/;

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
const FIELD_NAMES = [
  "intent",
  "title",
  "content",
  "category",
  "email",
  "password",
  "name",
  "id",
  "postId",
  "slug",
  "code",
  "credential",
  "passkeyId",
  "sessionId",
  "requireTwoFactor",
  "role",
  "published",
  "token",
  "verificationToken",
  "purpose",
  "message",
  "url",
];
const INTENTS = [
  "delete",
  "login",
  "password",
  "security",
  "create",
  "update",
  "revoke-others",
  "2fa-start",
  "2fa-disable",
  "passkey",
  "passkey-add",
  "passkey-remove",
  "2fa-passkey",
  "register",
  "sign-in",
  "second-factor",
];

const fieldValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...INTENTS), fc.constant("on"), fc.integer().map(String));
const fields = fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), token), fieldValue, { maxKeys: 6 });

const body: fc.Arbitrary<{ type: string | undefined; data: string | FormData | Uint8Array<ArrayBuffer> } | undefined> = fc.oneof(
  fc.constant(undefined),
  fields.map((f) => ({ type: "application/x-www-form-urlencoded", data: new URLSearchParams(f).toString() })),
  fc.json({ maxDepth: 3 }).map((data) => ({ type: "application/json", data })),
  fields.map((f) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(f)) form.append(key, value);
    form.append("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" }), "x.png");
    return { type: undefined, data: form };
  }),
  fc
    .tuple(fc.uint8Array({ maxLength: 256 }), fc.constantFrom("application/octet-stream", "text/plain", "multipart/form-data", "x/y; a=b"))
    .map(([bytes, type]) => ({ type, data: new Uint8Array(bytes) })),
);

const query = fc.oneof(
  fc.constant(""),
  fc.dictionary(token, fc.string({ maxLength: 30 }), { maxKeys: 4 }).map((q) => `?${new URLSearchParams(q).toString()}`),
  fc.constantFrom("?_data=root", "?index", "?page=-1", "?page=99999999999999", "?%zz", "?q=%E0%A4%A", "?q=" + "a".repeat(3000)),
);

const headers = fc.record(
  {
    accept: fc.constantFrom("*/*", "text/html", "application/json", "text/x-script", "image/*", ""),
    "user-agent": printable(80),
    "x-forwarded-for": fc.oneof(fc.ipV4(), printable(30)),
    "accept-language": printable(20),
    range: fc.oneof(fc.constant("bytes=0-10"), printable(20)),
    "if-none-match": printable(30),
    "sec-fetch-site": fc.constantFrom("same-origin", "cross-site", "none"),
    "x-requested-with": printable(10),
  },
  { requiredKeys: [] },
);

const cookies = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom("sid", "2fa", "__toast", "theme", "sidebar_state", "__session"), token), token),
  { maxLength: 4 },
);

const origin = fc.constantFrom<"self" | "none" | "evil" | "null">("self", "self", "none", "evil", "null");

/** A path parameter: the real value (so handlers get past their look-ups) or anything at all. */
function param(real: string) {
  return fc.oneof(
    fc.constant(real),
    fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    fc.constantFrom("..", "%2e%2e", "%00x"),
  );
}

const fingerprint = (db: Db) => tableDigests(db, Object.fromEntries(STAFF_TABLES.map((table) => [table, "rows" as const])));

const saved = { ...process.env };
beforeAll(() => {
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

/** A query value as a client may send it: a lone surrogate has no UTF-8 form, so its raw bytes go. */
function queryText(value: string): string {
  return value.replace(/[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) =>
    /^[\ud800-\udfff]$/.test(part)
      ? `%${[0xed, 0xa0 | ((part.charCodeAt(0) >> 6) & 0x0f), 0x80 | (part.charCodeAt(0) & 0x3f)].map((b) => b.toString(16).toUpperCase()).join("%")}`
      : encodeURIComponent(part),
  );
}

describeEachDatabase("fuzzing every route × method", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const patterns = routePatterns();

  async function fuzz(actor: "anonymous" | "user") {
    const post = await makePost(ctx.db);
    const real: Record<string, string> = {
      category: "Fun",
      slug: post.slug,
      postId: String(post.id),
      file: "posts.xml",
      "*": "nothing.png",
    };
    const member = actor === "user" ? await makeUser(ctx.db) : null;
    // First requests create what the site keeps from then on (its secret, its settings); then nothing may change.
    for (const pattern of patterns)
      await (await server.fetch(pattern.replace(/:(\w+)|\*/g, (_, n: string | undefined) => real[n ?? "*"] ?? "x"))).text();
    const before = await fingerprint(ctx.db);
    let requests = 0;
    for (const pattern of patterns) {
      const names = [...pattern.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? "*");
      const params = fc.record(Object.fromEntries(names.map((n) => [n, param(real[n] ?? "x")])));
      // The methods of one route run side by side; the staff data is compared once they are all answered.
      await Promise.all(
        METHODS.map((method) =>
          fc.assert(
            fc.asyncProperty(params, query, headers, cookies, origin, body, async (values, search, extra, jar, from, payload) => {
              const path = pattern.replace(/:(\w+)|\*/g, (_, name: string | undefined) => values[name ?? "*"] ?? "x");
              const session =
                member === null ? [] : [(await createSession(ctx.db, member.id, new Request(server.url))).split(";")[0] ?? ""];
              const cookie = [...session, ...jar.map(([k, v]) => `${k}=${v}`)].join("; ");
              const init: RequestInit = {
                method,
                headers: {
                  ...extra,
                  ...(cookie ? { cookie } : {}),
                  ...(from === "self"
                    ? { origin: server.url }
                    : from === "evil"
                      ? { origin: "https://evil.example" }
                      : from === "null"
                        ? { origin: "null" }
                        : {}),
                  ...(payload?.type && method !== "GET" && method !== "HEAD" ? { "content-type": payload.type } : {}),
                },
                signal: AbortSignal.timeout(15_000),
              };
              if (payload && method !== "GET" && method !== "HEAD") {
                init.body = payload.data;
              }
              requests++;
              const response = await server.fetch(path + search, init);
              const text = await response.text();
              const where = `${method} ${path}${search.slice(0, 80)}`;
              // The feed proxies say 502 when the upstream feed cannot be reached (this machine has no network): a gateway's answer, not a fault.
              const upstream = response.status === 502 && path.startsWith("/api/feeds/");
              expect(upstream || response.status < 500, `${where} → ${response.status}: ${text.slice(0, 300)}`).toBe(true);
              expect(STACK_FRAME.test(text), `${where}: stack trace in the body`).toBe(false);
            }),
            { numRuns: RUNS_PER_ROUTE_AND_METHOD },
          ),
        ),
      );
      expect(await fingerprint(ctx.db), `${actor}: staff data changed after fuzzing ${pattern}`).toEqual(before);
    }
    return requests;
  }

  it(
    "anonymous: no 5xx, no stack trace, no write to staff data",
    async () => {
      expect(await fuzz("anonymous")).toBeGreaterThanOrEqual(patterns.length * METHODS.length);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a plain user: no 5xx, no stack trace, no write to staff data",
    async () => {
      expect(await fuzz("user")).toBeGreaterThanOrEqual(patterns.length * METHODS.length);
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * Hostile text in every form and API, as an administrator (every staff form is reachable) and anonymous:
 * a NUL, lone surrogates, a very long value, runs of search operators, deeply nested JSON and Markdown.
 * Every action also gets every intent the app's forms dispatch on (read from the source), with every
 * field holding a NUL, or lone surrogates (their raw bytes), or over-long and deeply nested values.
 * Each must get an answer below 500. Prints how many requests were sent and how many answered 5xx (0).
 */
const HOSTILE_TEXT = ["a\u0000b", "x\ud800y", "\udfff", "-".repeat(40), "x".repeat(5_000)];
const DEEP_JSON = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
const VOCABULARY = formVocabulary();
const FORM_FIELDS = [...new Set([...FIELD_NAMES, ...VOCABULARY.fields])].filter((name) => name !== "intent");
/** Per field, so a form with every field stays well under the form size limit (a 413 would test nothing else). */
const PER_FIELD = Math.floor((96 * 1024) / FORM_FIELDS.length);
/**
 * A NUL is refused wherever it is, so it gets a form of its own; the other values share one form, each
 * field taking the next (which field gets which turns with each intent).
 */
const NUL_VALUE = "a\u0000b";
const INTENT_VALUES = [
  "x\ud800y\udfffz",
  "x".repeat(PER_FIELD),
  `${"> ".repeat(PER_FIELD / 8)}${"[".repeat(PER_FIELD / 4)}${"*".repeat(PER_FIELD / 4)}`,
];

/** A form body as a client may send it: lone surrogates as their raw bytes, not replaced. */
function formBody(fields: [string, string][]): string {
  return fields.map(([name, value]) => `${queryText(name)}=${queryText(value)}`).join("&");
}

describeEachDatabase("hostile values in every form and API", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("knows the intents and fields of the app's forms", () => {
    // Declared in each of the ways the source does: handler maps, hidden inputs, comparisons and switches.
    expect(VOCABULARY.intents).toEqual(
      expect.arrayContaining(["approve", "retry", "forgot", "2fa", "discard", "cancel", "save", "create"]),
    );
    expect(VOCABULARY.fields).toEqual(expect.arrayContaining(["title", "content", "siteUrl", "schedulingUrl", "email"]));
    expect(VOCABULARY.queryNames).toEqual(expect.arrayContaining(["q", "page", "post", "replyTo", "token"]));
  });

  it(
    "answers each with a 4xx or success, never a 5xx",
    async () => {
      const admin = await signedInAs(ctx.db, "admin");
      const post = await makePost(ctx.db);
      const real: Record<string, string> = { category: "Fun", slug: post.slug, postId: String(post.id), file: "posts.xml", "*": "x.png" };
      const paths = routePatterns().map((p) => p.replace(/:(\w+)|\*/g, (_, n: string | undefined) => real[n ?? "*"] ?? "x"));
      const bothDatabases = inject("postgresSkipReason") === null;
      let requests = 0;
      let intentForms = 0;
      const failures: string[] = [];
      const send = async (path: string, init: RequestInit & { headers: Record<string, string> }) => {
        requests++;
        const response = await server.fetch(path, { ...init, signal: AbortSignal.timeout(60_000) });
        const text = await response.text();
        if (response.status >= 500 && !(response.status === 502 && path.startsWith("/api/feeds/")))
          failures.push(
            `${init.method ?? "GET"} ${path.slice(0, 80)} ${String(init.body).slice(0, 40)} → ${response.status}: ${text.slice(0, 120)}`,
          );
        return response.status;
      };
      /** Both databases are PostgreSQL engines: each takes every other share of the work, so all of it is sent once in the run (all on PGlite when no PostgreSQL server is at hand). */
      const ours = (turn: number) => !bothDatabases || turn % 2 === (ctx.kind === "pglite" ? 0 : 1);
      for (const [cookieIndex, cookie] of [admin.cookie, ""].entries()) {
        const auth: Record<string, string> = { origin: server.url, ...(cookie ? { cookie } : {}) };
        const asForm = { ...auth, "content-type": "application/x-www-form-urlencoded" };
        for (const [pathIndex, path] of paths.entries()) {
          const plain = await send(path, { method: "POST", headers: asForm, body: "category=Fun" });
          for (const [valueIndex, value] of HOSTILE_TEXT.entries()) {
            // Every route meets every hostile value, as staff and anonymous, on one of the two databases.
            if (!ours(cookieIndex + pathIndex + valueIndex)) continue;
            // Every query name a loader reads; an over-long value only in two, so the address stays under the header limit.
            const names = value.length > 200 ? ["q", "page"] : VOCABULARY.queryNames;
            const search = names.map((name) => `${queryText(name)}=${queryText(value)}`).join("&");
            await send(`${path}?${search}`, { method: "GET", headers: auth });
            const form = new URLSearchParams(FIELD_NAMES.map((name) => [name, value]));
            form.set("category", "Fun");
            await send(path, { method: "POST", headers: asForm, body: form });
            const json = JSON.stringify(Object.fromEntries(FIELD_NAMES.map((name) => [name, value])));
            await send(path, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: json });
          }
          await send(path, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: DEEP_JSON });
          await send(`${path.replace(/\/[^/]*$/, "")}/${encodeURIComponent("a\u0000b")}`, { method: "GET", headers: auth });
          // No action here (405), or one a visitor is turned away from before any intent is read.
          if (plain === 405 || (!cookie && (plain === 401 || plain === 403))) continue;
          for (const [turn, intent] of VOCABULARY.intents.entries()) {
            if (!ours(turn + pathIndex)) continue;
            intentForms++;
            const head: [string, string][] = [
              ["intent", intent],
              ["category", "Fun"],
            ];
            // One of the three hostile bodies per route × intent, turning with both, so every intent meets
            // each body on some routes and every route meets each body with some intents.
            const kind = (turn + pathIndex) % 3;
            if (kind === 0) {
              const withNul = FORM_FIELDS.map((name): [string, string] => [name, NUL_VALUE]);
              await send(path, { method: "POST", headers: asForm, body: formBody([...head, ...withNul]) });
            } else if (kind === 1) {
              const mixed = FORM_FIELDS.map((name, i): [string, string] => [name, INTENT_VALUES[(i + turn) % INTENT_VALUES.length] ?? ""]);
              await send(path, { method: "POST", headers: asForm, body: formBody([...head, ...mixed]) });
            } else {
              const json = JSON.stringify({ ...Object.fromEntries(FORM_FIELDS.map((name) => [name, "x\ud800y"])), intent });
              await send(path, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: json });
            }
          }
        }
      }
      console.log(
        `hostile values [${ctx.kind}]: ${requests} requests (${intentForms} route × intent pairs, ${VOCABULARY.intents.length} intents, ${FORM_FIELDS.length} fields), ${failures.length} answered 5xx`,
      );
      expect(failures).toEqual([]);
    },
    TEST_TIMEOUT_MS * 5,
  );
});
