// Runs before the e2e server starts (see playwright.config.ts): seeds the fresh data directory like a
// first start, plus a moderator and a plain user, so tests can sign in with every role.
import { createUser } from "~/features/users/users.server";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { seedIfEmpty } from "~/server/seed.server";
import { E2E_MODERATOR, E2E_USER } from "./constants";

const env = getEnv();
const database = await openDatabase({ kind: "pglite", dataDir: env.dataDir });
try {
  await migrateDatabase(database);
  const result = await seedIfEmpty(database.db, env);
  if (result.seeded) {
    await createUser(database.db, { ...E2E_MODERATOR, roles: ["moderator"] });
    await createUser(database.db, { ...E2E_USER });
  }
} finally {
  await database.close();
}
