import fs from "node:fs";
import { isAppError } from "~/server/errors.server";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { findCommand, USAGE } from "./commands";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main() {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const argv = process.argv.slice(2);
  const io = { out: console.log, readStdin };
  const command = findCommand(argv);
  if (!command) {
    io.out(USAGE);
    return 0;
  }
  if (command.standalone) {
    await command.run(argv, io);
    return 0;
  }
  const env = getEnv();
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: "pglite", dataDir: env.dataDir });
  try {
    if (command.migrates) await migrateDatabase(database);
    await command.run(argv, { database, io, storage: getStorage(), progress: process.stderr.isTTY });
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = isAppError(error) || (error instanceof Error && ["EnvError", "DataDirLockedError", "TypeError"].includes(error.name));
    console.error(`Error: ${known && error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
