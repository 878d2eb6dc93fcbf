import { spawn } from "node:child_process";
import { like } from "drizzle-orm";
import { expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { tempDir } from "../helpers/temp-dir";

const dir = tempDir("durability-");

it("keeps every acknowledged write when the process is killed with SIGKILL", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/pglite-writer.ts", dir], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, LOG_LEVEL: "silent" },
  });
  let lastAck = 0;
  await new Promise<void>((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const acks = [...buffer.matchAll(/ack (\d+)/g)];
      if (acks.length) lastAck = Number(acks[acks.length - 1]![1]);
      if (lastAck >= 40) {
        child.kill("SIGKILL");
        resolve();
      }
    });
    child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`writer exited ${code}`))));
  });
  // Wait for the killed writer to be gone for good: its lock is taken over only once its pid no longer exists.
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));

  // The dead writer's lock is taken over; the database recovers and holds every acknowledged row.
  const database = await openDatabase({ kind: "pglite", dataDir: dir });
  try {
    const rows = await database.db.select({ key: appSettings.key }).from(appSettings).where(like(appSettings.key, "row-%"));
    expect(rows.length).toBeGreaterThanOrEqual(lastAck);
  } finally {
    await database.close();
  }
});
