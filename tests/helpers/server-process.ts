import { randomUUID } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { serverNodeArgs } from "../../scripts/server-node-args.mjs";
import { easyAltchaToken } from "./altcha";
import { waitFor } from "./contact";
import { freePort } from "./postgres-cluster";

/** A production server (`node server.js` on the build, with `npm start`'s flags) running as a child process of the test. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Everything it wrote to stderr so far (start-up warnings, errors). */
  stderr: () => string;
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts `node server.js` with exactly `env` (plus PATH/HOME, PORT — a free one unless given — and
 * HOST=127.0.0.1) and waits until /healthz answers. Run `npm run build` first.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; /** Another checkout's build (an earlier release); this one's by default. */ cwd?: string } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [...serverNodeArgs(), "server.js"], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // Logs (pino) go to stdout; warnings are kept with stderr so tests can read both.
  child.stdout?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    120_000,
    "server start",
  );
  return {
    child,
    url,
    exited,
    stderr: () => stderr,
    fetch: (input, init) => fetch(new URL(input, url), { redirect: "manual", ...init }),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Signs in through the real login API (the secret is the server's AUTH_SECRET); returns the session cookie. */
export async function signInTo(server: ServerProcess, account: { email: string; password: string }, secret: string): Promise<string> {
  const response = await server.fetch("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ ...account, verificationToken: await easyAltchaToken(secret) }),
  });
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  if (response.status !== 200 || !cookie.includes("=")) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}

/** A PNG posted to /api/uploads as the signed-in staff member of `cookie` (as the editor does). */
export function uploadPng(server: ServerProcess, cookie: string, png: Buffer): Promise<Response> {
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
  return server.fetch("/api/uploads", { method: "POST", headers: { origin: server.url, cookie }, body: form });
}

/** The name=value pairs of a response's Set-Cookie headers (an emptied cookie has an empty value). */
export function setCookies(response: Response): Map<string, string> {
  return new Map(
    response.headers.getSetCookie().map((c) => {
      const pair = c.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** A contact message number `n` posted to the server's API as the contact form does (`token`: a verification token). */
export function postContactMessage(server: ServerProcess, n: number, token: string, signal?: AbortSignal): Promise<Response> {
  return server.fetch("/api/send-contact-email", {
    method: "POST",
    signal,
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({
      name: `Sender ${n}`,
      email: `sender${n}@example.com`,
      message: `Message number ${n}`,
      clientId: randomUUID(),
      turnstileToken: token,
    }),
  });
}

/** Pollers every 200 ms (outbox, job runner, content version): what is due goes out within a test's few seconds. */
/** A server with no demo content whose first administrator is `admin`, signing with `secret`. */
export function ownerServerEnv(secret: string, admin: { email: string; password: string }) {
  return { AUTH_SECRET: secret, SEED_DEMO_CONTENT: "false", INITIAL_ADMIN_EMAIL: admin.email, INITIAL_ADMIN_PASSWORD: admin.password };
}

export const FAST_POLLING = { CONTACT_POLL_MS: "200", JOBS_POLL_MS: "200", CONTENT_VERSION_POLL_MS: "200" } as const;
