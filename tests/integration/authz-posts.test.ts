import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPost } from "~/features/posts/posts.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, startTestServer, type TestServer } from "../helpers/test-server";
import { png } from "../fixtures/images";

/** Row-by-row: who may create, update, delete and upload (SPEC §6 as decided in docs/decisions/004). */
type Who = "anonymous" | "user" | "moderator" | "otherModerator" | "admin";
type Op = "create" | "update" | "delete" | "upload" | "newPage" | "editPage";

/** Expected status per operation and caller. The post under test is written by `moderator`. */
const TABLE: { op: Op; who: Who; status: number }[] = [
  // A document POST also runs the page loader, which sends anonymous callers to sign in.
  { op: "create", who: "anonymous", status: 302 },
  { op: "create", who: "user", status: 403 },
  { op: "create", who: "moderator", status: 302 },
  { op: "create", who: "admin", status: 302 },
  { op: "update", who: "anonymous", status: 302 },
  { op: "update", who: "user", status: 403 },
  { op: "update", who: "otherModerator", status: 302 },
  { op: "update", who: "admin", status: 302 },
  { op: "delete", who: "anonymous", status: 401 },
  { op: "delete", who: "user", status: 403 },
  { op: "delete", who: "otherModerator", status: 403 },
  { op: "delete", who: "moderator", status: 302 },
  { op: "delete", who: "admin", status: 302 },
  { op: "upload", who: "anonymous", status: 401 },
  { op: "upload", who: "user", status: 403 },
  { op: "upload", who: "moderator", status: 201 },
  { op: "newPage", who: "anonymous", status: 302 },
  { op: "newPage", who: "user", status: 403 },
  { op: "newPage", who: "moderator", status: 200 },
  { op: "editPage", who: "anonymous", status: 302 },
  { op: "editPage", who: "user", status: 403 },
  { op: "editPage", who: "otherModerator", status: 200 },
];

describeEachDatabase("post permissions over HTTP", (ctx) => {
  let server: TestServer;
  const cookies: Partial<Record<Who, string>> = {};
  let authorId = "";
  let counter = 0;
  beforeAll(async () => {
    process.env.UPLOAD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "authz-uploads-"));
    server = await startTestServer();
    for (const who of ["user", "moderator", "otherModerator", "admin"] as const) {
      const signed = await signedInAs(ctx.db, who === "otherModerator" ? "moderator" : who);
      cookies[who] = signed.cookie;
      if (who === "moderator") authorId = signed.userId;
    }
  });
  afterAll(() => server.close());

  async function freshPost(): Promise<string> {
    counter += 1;
    const post = await createPost(ctx.db, { id: authorId, role: "moderator" }, { title: `Authz ${counter} ${Date.now()}`, content: "x", category: "Fun", published: true });
    return post.slug;
  }

  function postForm(fields: Record<string, string>): URLSearchParams {
    return new URLSearchParams(fields);
  }

  async function run(op: Op, who: Who): Promise<Response> {
    const headers: Record<string, string> = { origin: server.url };
    const cookie = cookies[who];
    if (cookie) headers.cookie = cookie;
    const fields = { title: `Made by ${who} ${Date.now()} ${Math.random()}`, content: "Body", published: "on" };
    switch (op) {
      case "create":
        return server.fetch("/7fs/Fun/new", { method: "POST", headers, body: postForm(fields) });
      case "update":
        return server.fetch(`/7fs/Fun/${await freshPost()}/edit`, { method: "POST", headers, body: postForm(fields) });
      case "delete":
        return server.fetch(`/7fs/Fun/${await freshPost()}`, { method: "POST", headers, body: postForm({ intent: "delete" }) });
      case "upload": {
        const body = new FormData();
        body.append("files", new Blob([new Uint8Array(await png())], { type: "image/png" }), "a.png");
        return server.fetch("/api/uploads", { method: "POST", headers, body });
      }
      case "newPage":
        return server.fetch("/7fs/Fun/new", { headers });
      case "editPage":
        return server.fetch(`/7fs/Fun/${await freshPost()}/edit`, { headers });
    }
  }

  it.each(TABLE)("$op by $who → $status", async ({ op, who, status }) => {
    const response = await run(op, who);
    expect(response.status).toBe(status);
    if (status === 302 && who !== "anonymous") expect(response.headers.get("location")).toMatch(/^\/7fs\/Fun(\/|$)/);
    if (status === 401 && op === "upload") expect((await response.json()).error).toBe("You must be logged in to upload images");
    if (status === 302 && who === "anonymous") expect(response.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
  });
});
