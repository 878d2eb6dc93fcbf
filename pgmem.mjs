import { PGlite } from "@electric-sql/pglite";
const rss = () => (process.memoryUsage().rss/1048576).toFixed(0);
console.log("start", rss());
const db = await PGlite.create({ dataDir: process.argv[2] });
console.log("open", rss());
const r = await db.query("select name, setting, unit from pg_settings where name in ('shared_buffers','work_mem','maintenance_work_mem','wal_buffers','temp_buffers','effective_cache_size')");
console.log(r.rows);
await db.query("select count(*) from pg_class");
console.log("after query", rss(), process.memoryUsage());
