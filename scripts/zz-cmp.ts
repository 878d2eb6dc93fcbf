import { searchPosts } from "~/features/search/search.server";
import { searchPosts as before } from "../node_modules/.bench/search-before.server";
import { openDatabase } from "~/server/db/client.server";
const url = process.env.PGURL;
const database = await openDatabase(url ? { kind: "postgres", url, poolSize: 2 } : { kind: "pglite", dataDir: "/tmp/18-common/pglite" });
for (const q of process.argv.slice(2)) {
  const [a, b] = [await before(database.db, q, 1), await searchPosts(database.db, q, 1)];
  console.log(q, a.total, b.total, JSON.stringify(a.hits.map((h) => h.id)) === JSON.stringify(b.hits.map((h) => h.id)));
  for (let i = 0; i < 3; i++) console.log("  A:", a.hits[i]?.snippet.replace(/\u0002/g, "[").replace(/\u0003/g, "]"), "\n  B:", b.hits[i]?.snippet.replace(/\u0002/g, "[").replace(/\u0003/g, "]"));
}
await database.close();
