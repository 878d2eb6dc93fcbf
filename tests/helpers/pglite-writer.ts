// Child process for the durability test: inserts rows one by one and prints "ack N" after each commit.
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: pglite-writer <dataDir>");
const database = await openDatabase({ kind: "pglite", dataDir });
await migrateDatabase(database);
process.stdout.write("ready\n");
for (let i = 1; ; i++) {
  await database.db.insert(appSettings).values({ key: `row-${i}`, value: String(i) });
  process.stdout.write(`ack ${i}\n`);
}
