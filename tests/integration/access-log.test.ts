import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { tempDir } from "../helpers/temp-dir";

/**
 * The production server as a process (node server.js), its stdout captured: one access line per
 * request, a POST to a page without an action answered 405 in one line without a stack, and no
 * password, token, cookie or authorization header ever written.
 */
const accessLine = z.object({
  level: z.number(),
  msg: z.string(),
  req: z.object({ id: z.string(), method: z.string(), path: z.string() }),
  res: z.object({ status: z.number() }),
  responseTime: z.number(),
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("access log and log hygiene (node server.js)", () => {
  let child: ChildProcess;
  let output = "";
  let base = "";
  const dataDir = tempDir("access-log-");

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        LOG_LEVEL: "info",
        NODE_ENV: "production",
        SEED_DEMO_CONTENT: "false",
        INITIAL_ADMIN_EMAIL: "owner@example.com",
        INITIAL_ADMIN_PASSWORD: "initial admin pass phrase 77",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes("server listening")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });

  const linesFor = (requestId: string) =>
    output
      .split("\n")
      .filter((line) => line.includes(requestId))
      .map((line) => accessLine.parse(JSON.parse(line)));

  async function waitForLine(requestId: string) {
    const deadline = Date.now() + 5_000;
    while (linesFor(requestId).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return linesFor(requestId);
  }

  it("writes one line per request with method, path, status, duration and the request id", async () => {
    const response = await fetch(`${base}/about?token=query-reset-token-abc`, {
      headers: { cookie: "sid=secret-session-cookie", authorization: "Bearer secret-api-key" },
    });
    expect(response.status).toBe(200);
    const id = response.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [line, ...more] = await waitForLine(id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: "request", req: { id, method: "GET", path: "/about" }, res: { status: 200 } });
    expect(line?.responseTime).toBeGreaterThanOrEqual(0);
  });

  it("writes the same one line for a page-cache hit, answered before the access-log middleware", async () => {
    await (await fetch(`${base}/projects`)).text();
    const hit = await fetch(`${base}/projects?utm_source=x`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    await hit.text();
    const id = hit.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [line, ...more] = await waitForLine(id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: "request", req: { id, method: "GET", path: "/projects" }, res: { status: 200 } });
  });

  it("POST /about (no action) answers 405 with Allow, logged in one line without a stack", async () => {
    const response = await fetch(`${base}/about`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: "password=form-password-secret",
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const id = response.headers.get("x-request-id") ?? "";
    const lines = await waitForLine(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ req: { method: "POST", path: "/about" }, res: { status: 405 } });
    expect(output).not.toMatch(/\n\s+at [\w.<>]+ \(|"stack"/);
  });

  it("GET of an address that only receives posts (/webmention, /ap/inbox) answers 405 with Allow: POST, without a stack", async () => {
    for (const path of ["/webmention", "/ap/inbox"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).toBe("POST");
      expect(await response.text(), path).toBe("Method not allowed. This address only receives POST requests.");
      expect(await waitForLine(response.headers.get("x-request-id") ?? ""), path).toHaveLength(1);
    }
    expect(output).not.toMatch(/\n\s+at [\w.<>]+ \(|"stack"|no way to handle the request/);
  });

  it("never writes passwords, tokens, cookies or authorization headers", async () => {
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie: "sid=another-secret-cookie" },
      body: JSON.stringify({
        email: "owner@example.com",
        password: "login-password-secret",
        verificationToken: "verification-token-secret",
      }),
    });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(await waitForLine(login.headers.get("x-request-id") ?? "")).toHaveLength(1);
    for (const secret of [
      "query-reset-token-abc",
      "secret-session-cookie",
      "secret-api-key",
      "form-password-secret",
      "another-secret-cookie",
      "login-password-secret",
      "verification-token-secret",
      "initial admin pass phrase 77",
    ]) {
      expect(output).not.toContain(secret);
    }
  });
});
