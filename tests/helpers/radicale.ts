import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A real CalDAV server for tests: Radicale (Debian package `radicale`, installed by .ci/run), on a free
 * port of 127.0.0.1, with one user (plain htpasswd) and its data in a temporary folder.
 */
export interface RadicaleServer {
  /** http://127.0.0.1:PORT */
  base: string;
  username: string;
  password: string;
  /** Sends a WebDAV request as the user (setting up calendars and events). */
  request(method: string, pathname: string, body?: string, contentType?: string): Promise<Response>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startRadicale(): Promise<RadicaleServer> {
  if (spawnSync("radicale", ["--version"], { stdio: "ignore" }).status !== 0)
    throw new Error("Radicale is not installed: `apt-get install radicale` (.ci/run installs it)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "radicale-"));
  const username = "owner";
  const password = "correct horse battery staple";
  fs.writeFileSync(path.join(dir, "users"), `${username}:${password}\n`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    "radicale",
    [
      "--config",
      "",
      "--server-hosts",
      `127.0.0.1:${port}`,
      "--auth-type",
      "htpasswd",
      "--auth-htpasswd-filename",
      path.join(dir, "users"),
      "--auth-htpasswd-encryption",
      "plain",
      "--auth-delay",
      "0",
      "--storage-filesystem-folder",
      path.join(dir, "collections"),
      "--logging-level",
      "warning",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const request = (method: string, pathname: string, body?: string, contentType = "text/calendar; charset=utf-8") =>
    fetch(new URL(pathname, base), { method, body, headers: { authorization, ...(body ? { "content-type": contentType } : {}) } });

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  // Ready when it answers; gives up (stopped, its directory removed) when the process ends or after 20 s.
  const deadline = Date.now() + 20_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Radicale exited (${child.exitCode}): ${stderr}`);
      try {
        await fetch(base);
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`Radicale did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, username, password, request, stop };
}
