import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { FIXED_PAGES } from "../helpers/pages";

/**
 * Raw HTTP with bad input against the production build, over every endpoint: wrong methods,
 * malformed JSON, wrong content types, oversized bodies, odd encodings. Nothing may answer 5xx or
 * show a stack trace; everything under /api answers JSON with an `error` a person can read.
 */
interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, agent: false, headers: { origin: url, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

const PAGES = [
  ...FIXED_PAGES,
  "/logout",
  "/admin",
  "/admin/blog",
  "/admin/messages",
  "/admin/users",
  "/admin/projects",
  "/7fs/faith",
  "/7fs/faith/new",
  "/7fs/faith/no-such-post",
  "/7fs/faith/no-such-post/edit",
  "/rss.xml",
  "/7fs/faith/rss.xml",
  "/sitemap.xml",
  "/robots.txt",
  "/uploads/none.png",
  "/no/such/page",
];
const APIS = [
  "/api/auth/login",
  "/api/send-contact-email",
  "/api/uploads",
  "/api/verification/challenge",
  "/api/feeds/substack",
  "/api/feeds/tsp-blog",
  "/api/feeds/tsp-kb",
  "/api/no-such-endpoint",
  "/api/%ZZ",
];
const FORM_ROUTES = [
  "/contact",
  "/auth",
  "/admin/messages",
  "/admin/users",
  "/admin/projects",
  "/7fs/faith/new",
  "/7fs/faith/no-such-post",
  "/7fs/faith/no-such-post/edit",
];
const BIG = "a".repeat(3 * 1024 * 1024);

interface Case {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  signedIn?: boolean;
  /** The exact status, where it matters. */
  status?: number;
}

function cases(): Case[] {
  const table: Case[] = [];
  for (const path of PAGES) {
    for (const method of ["GET", "HEAD", "OPTIONS"]) table.push({ method, path });
    for (const method of ["PUT", "DELETE", "PATCH"]) table.push({ method, path, status: 405 });
    table.push({ method: "POST", path });
    table.push({ method: "POST", path, headers: { "content-type": "application/json" }, body: '{"broken":', status: 415 });
    table.push({ method: "GET", path: `${path}?unknown=1&page=-5&q=%ZZ&limit=abc` });
    table.push({ method: "GET", path: `${path}?page=99999999999999999999&filter=bogus&status=%E0%A4%A&category=nope`, signedIn: true });
    table.push({ method: "HEAD", path, signedIn: true });
  }
  for (const path of FORM_ROUTES) {
    for (const signedIn of [false, true]) {
      table.push({ method: "POST", path, signedIn });
      table.push({ method: "POST", path, signedIn, headers: { "content-type": "application/json" }, body: "{}", status: 415 });
      table.push({ method: "POST", path, signedIn, headers: { "content-type": "text/plain" }, body: "hello", status: 415 });
      table.push({
        method: "POST",
        path,
        signedIn,
        headers: { "content-type": "multipart/form-data; boundary=xyz" },
        body: "not multipart at all",
      });
      table.push({
        method: "POST",
        path,
        signedIn,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "intent=%ZZ&id=%E0%A4%A&title=",
      });
      table.push({
        method: "POST",
        path,
        signedIn,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: BIG,
        status: 413,
      });
    }
  }
  for (const path of APIS) {
    for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) table.push({ method, path });
    for (const body of ["{bad json", "[]", "null", '"text"', "{}", '{"name":{"$gt":""},"email":[1],"message":null}']) {
      table.push({ method: "POST", path, headers: { "content-type": "application/json" }, body });
    }
    table.push({ method: "POST", path, headers: { "content-type": "text/plain" }, body: "hello" });
    table.push({ method: "POST", path, headers: { "content-type": "multipart/form-data; boundary=xyz" }, body: "garbage" });
    table.push({
      method: "POST",
      path,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: BIG }),
      status: path === "/api/uploads" ? undefined : 413,
    });
  }
  table.push({ method: "PUT", path: "/api/send-contact-email", status: 405 });
  for (const path of ["/api/send-contact-email", "/contact"]) {
    table.push({
      method: "POST",
      path,
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: "{}",
      status: 411,
    });
    table.push({ method: "POST", path, headers: { "content-type": "application/json; charset=utf-16" }, body: "\uFFFE{\u0000}" });
    table.push({
      method: "POST",
      path,
      headers: { "content-type": "application/json" },
      body: `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    });
    table.push({ method: "POST", path, headers: { "content-type": "application/json", origin: "not a url" }, body: "{}", status: 403 });
  }
  table.push({ method: "GET", path: "/api/no-such-endpoint", status: 404 });
  for (const path of [
    "/7fs/%E0%A4%A",
    "/%ZZ",
    "/%",
    "/7fs/%ZZ/x",
    "/7fs/faith/%E0%A4%A",
    "/7fs/faith/%E0%A4%A/edit",
    "/admin/%ZZ",
    "/uploads/%ZZ",
    "/uploads/..%2F..%2Fetc%2Fpasswd",
    "/assets/%ZZ",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/contact.data",
    "/%ZZ.data",
  ]) {
    table.push({ method: "GET", path });
  }
  for (const path of ["/7fs/faith/%00", "/7fs/%00", "/api/send-contact-email%00", "/?q=%00"])
    table.push({ method: "GET", path, status: 400 });
  table.push({ method: "GET", path: `/7fs/faith/${"a".repeat(6000)}` });
  table.push({ method: "GET", path: `/7fs/faith?${"q=a&".repeat(1500)}` });
  table.push({ method: "GET", path: "/", headers: { cookie: "sid=%ZZ%E0%A4%A" }, status: 200 });
  table.push({ method: "GET", path: "/admin", headers: { cookie: "sid=%ZZ" } });
  return table;
}

describeEachDatabase("HTTP robustness: bad requests get a 4xx with a message, never a 5xx", (ctx) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ cookie } = await signedInAs(ctx.db, "admin"));
  });
  afterAll(() => server.close());

  it("answers the whole table without a 5xx or a stack trace, and JSON with `error` under /api", async () => {
    const failures: string[] = [];
    for (const c of cases()) {
      const headers = { ...c.headers, ...(c.signedIn ? { cookie } : {}) };
      const response = await raw(server.url, c.method, c.path, headers, c.body).catch((error: unknown) => ({
        status: -1,
        contentType: "",
        body: String(error),
      }));
      if (response.status === -1) {
        failures.push(`${c.method} ${c.path.slice(0, 80)} ${c.headers?.["content-type"] ?? ""}: ${response.body}`);
        continue;
      }
      const label = `${c.method} ${c.path.slice(0, 80)}${c.signedIn ? " (admin)" : ""} ${c.headers?.["content-type"] ?? ""} → ${response.status}`;
      // The feed proxies answer 502 (JSON) when the upstream site is unreachable, as here (no network).
      const upstream = c.path.startsWith("/api/feeds/") && response.status === 502;
      if (response.status >= 500 && !upstream) failures.push(`${label}: ${response.body.slice(0, 200)}`);
      if (c.status !== undefined && response.status !== c.status) failures.push(`${label}: expected ${c.status}`);
      if (/\n\s+at .+:\d+:\d+|node_modules|server-build-/.test(response.body)) failures.push(`${label}: stack trace in body`);
      const api = c.path.startsWith("/api/") && !c.path.includes("%00");
      if (api && c.method !== "HEAD" && response.status >= 400) {
        if (!response.contentType.startsWith("application/json")) failures.push(`${label}: ${response.contentType} instead of JSON`);
        else {
          const body: unknown = JSON.parse(response.body);
          const error = typeof body === "object" && body !== null && "error" in body ? body.error : undefined;
          if (typeof error !== "string" || error.length === 0)
            failures.push(`${label}: no error message in ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("states what went wrong in words, and which methods are allowed", async () => {
    const put = await raw(server.url, "PUT", "/contact");
    expect(put.status).toBe(405);
    expect(put.body).toBe("Method not allowed. Pages accept GET, HEAD and form posts (POST).");
    const getLogin = await raw(server.url, "GET", "/api/auth/login");
    expect(getLogin.status).toBe(405);
    expect(JSON.parse(getLogin.body)).toEqual({ error: "Method not allowed. Use POST." });
    const json = await raw(server.url, "POST", "/contact", { "content-type": "application/json" }, "{}");
    expect(json.body).toBe("Forms must be sent as application/x-www-form-urlencoded or multipart/form-data.");
    const broken = await raw(server.url, "POST", "/contact", { "content-type": "multipart/form-data; boundary=xyz" }, "garbage");
    expect(broken.status).toBe(400);
    expect(broken.body).toContain("The form could not be read. Please reload the page and try again.");
    const huge = await raw(
      server.url,
      "POST",
      "/api/send-contact-email",
      { "content-type": "application/json" },
      JSON.stringify({ name: BIG }),
    );
    expect(JSON.parse(huge.body)).toEqual({ error: "The request is too large (at most 2 MB)." });
  });
});
