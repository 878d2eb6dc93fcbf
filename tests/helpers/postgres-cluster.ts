import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const BIN_DIRS = ["/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin"];

function findBinary(name: string): string | undefined {
  for (const dir of BIN_DIRS) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Stops the server of a cluster made by startPostgresCluster, if it runs (at once: `-m immediate`), and removes its directory. */
export function removePostgresCluster(dir: string): void {
  const pgCtl = findBinary("pg_ctl");
  const dataDir = path.join(dir, "data");
  if (pgCtl && fs.existsSync(path.join(dataDir, "postmaster.pid"))) {
    const [file, argv] = isRoot()
      ? ["runuser", ["-u", "postgres", "--", pgCtl, "-D", dataDir, "-m", "immediate", "stop"]]
      : [pgCtl, ["-D", dataDir, "-m", "immediate", "stop"]];
    spawnSync(file, argv, { stdio: "ignore" });
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface PostgresCluster {
  url: string;
  /** Stops the server and removes the cluster. */
  stop(): void;
  /** Stops the server as an operator would (`pg_ctl stop -m fast`: open sessions are ended), keeping its data. */
  shutDown(): void;
  /** Starts a server shut down by `shutDown` again, on the same port and data. */
  startUp(): void;
}

/**
 * Starts a throwaway PostgreSQL cluster from the installed binaries on a free port. As root, the
 * server runs as the `postgres` user (PostgreSQL refuses to run as root). Returns null, with the
 * reason, when no binaries are installed.
 */
export async function startPostgresCluster(): Promise<PostgresCluster | { skipped: string }> {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  if (!initdb || !pgCtl) return { skipped: `no PostgreSQL binaries (initdb, pg_ctl) in ${BIN_DIRS.join(", ")}` };

  const root = isRoot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgtest-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
    execFileSync(file, argv, { stdio: "pipe" });
  };
  const startUp = () =>
    run(pgCtl, [
      "-D",
      dataDir,
      "-l",
      path.join(dir, "log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      "-w",
      "start",
    ]);
  const stop = () => removePostgresCluster(dir);
  try {
    if (root) execFileSync("chown", ["postgres", dir]);
    run(initdb, ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    startUp();
  } catch (error) {
    stop();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    shutDown: () => run(pgCtl, ["-D", dataDir, "-m", "fast", "-w", "stop"]),
    startUp,
    stop,
  };
}
