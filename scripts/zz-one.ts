import { searchPosts } from "~/features/search/search.server";
import { openDatabase } from "~/server/db/client.server";
import { performance } from "node:perf_hooks";
const url = process.env.PGURL;
const database = await openDatabase(url ? { kind: "postgres", url, poolSize: 2 } : { kind: "pglite", dataDir: "/tmp/18-common/pglite" });
const qs = process.argv.slice(2);
for (let round = 0; round < 3; round++)
  for (const q of qs) {
    const t = performance.now();
    const r = await searchPosts(database.db, q, 1);
    console.log(round, JSON.stringify(q), r.total, (performance.now() - t).toFixed(1), "ms");
  }
await database.close();
