import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
const dir = "/tmp/32f6-exp/db"; fs.rmSync(dir, {recursive:true, force:true});
const flag = process.env.FAULT_DISK_FULL_FLAG; fs.writeFileSync(flag, "");
let dead = null;
class P extends PGlite {
  async execProtocolStream(...a) { if (globalThis.T0) console.log("stream", dead ? "dead" : "alive", Date.now()-globalThis.T0); if (dead) throw new Error("dead"); try { return await super.execProtocolStream(...a); } catch (e) { if (e?.severity === "PANIC" || e?.severity === "FATAL") dead = e; throw e; } }
  async execProtocol(...a) { if (globalThis.T0) console.log("proto", dead ? "dead" : "alive"); if (dead) throw new Error("dead"); try { return await super.execProtocol(...a); } catch (e) { if (e?.severity === "PANIC" || e?.severity === "FATAL") dead = e; throw e; } }
}
const db = new P({ dataDir: dir }); await db.waitReady;
await db.exec("create table t (id serial primary key, v text)");
await db.query("insert into t (v) select 'a' from generate_series(1,100)");
console.log("ok before");
fs.writeFileSync(flag, dir + "\n");
const t0 = Date.now(); globalThis.T0 = t0; const hb = setInterval(() => console.log("beat", Date.now()-t0), 500);
const p1 = db.query("insert into t (v) values ('small')").catch(e => console.log("insert failed", Date.now()-t0, e.code, e.severity, Object.keys(e), e.message.slice(0,120)));
const p2 = db.query("select count(*) from t").then(r => console.log("read", r.rows), e => console.log("read failed", Date.now()-t0, e.message.slice(0,120)));
const p3 = db.transaction(async (tx) => { await tx.query("insert into t (v) values ('tx')"); }).catch(e => console.log("tx failed", Date.now()-t0, e.message.slice(0,120)));
await Promise.all([p1,p2,p3]);
console.log("done", Date.now()-t0);
process.exit(3);
