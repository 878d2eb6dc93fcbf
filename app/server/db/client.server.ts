import fs from "node:fs";
import path from "node:path";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGlite, types, type PGliteOptions, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { logger } from "../logger.server";
import * as schema from "./schema.server";
import { acquireDirLock } from "./dir-lock.server";
import { createPgListener, type Listen } from "./notify.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * The FROM of a select made only of scalar subqueries: several counts read in one statement (each
 * statement is several round trips into PGlite), e.g. `db.select({ n: countOf() }).from(ONE_ROW)`.
 */
export const ONE_ROW = sql`(select 1) as one`;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a trivial query; throws when the database does not answer. */
  ping(): Promise<void>;
  /** LISTEN on a channel (a dedicated connection on PostgreSQL; PGlite's own on the embedded database). */
  listen: Listen;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: "postgres";
      url: string;
      poolSize?: number;
      /** How long a query waits for a connection (a free one in the pool, or a new one) before it fails. */
      connectTimeoutMs?: number;
    }
  | {
      kind: "pglite";
      dataDir: string;
      /** Called once if the embedded database stops for good (see DrizzlePGlite); the server exits then. */
      onStopped?: (reason: string) => void;
    }
  | { kind: "pglite-memory"; loadDataDir?: Blob };

/**
 * PGlite writes this over the data directory's postgresql.conf at every open, so it carries initdb's own lines
 * (locale, time zone, text search) too. Why these values: docs/decisions/0038-pglite-memory.md.
 */
const PGLITE_POSTGRESQL_CONF = [
  "shared_buffers = 32MB",
  "maintenance_work_mem = 16MB",
  "dynamic_shared_memory_type = posix",
  "max_wal_size = 1GB",
  "min_wal_size = 80MB",
  "datestyle = 'iso, mdy'",
  "timezone = UTC",
  "log_timezone = UTC",
  "lc_messages = C",
  "lc_monetary = C",
  "lc_numeric = C",
  "lc_time = C",
  "default_text_search_config = 'pg_catalog.english'",
];

/**
 * The types drizzle-orm's PGlite driver asks to get as text (it converts dates itself): timestamp,
 * timestamptz, interval, date, and the arrays numeric[], timestamp[], timestamptz[], interval[], date[].
 */
export const DRIZZLE_TEXT_TYPES: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];
const DRIZZLE_TEXT_TYPE_KEYS = new Set(DRIZZLE_TEXT_TYPES.map(String));
const asText = (value: string) => value;

/** `options` without drizzle's parsers when they are exactly the ones the client already holds. */
function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers) return options;
  const keys = Object.keys(parsers);
  if (keys.length !== DRIZZLE_TEXT_TYPE_KEYS.size || !keys.every((key) => DRIZZLE_TEXT_TYPE_KEYS.has(key))) return options;
  const { parsers: _held, ...rest } = options;
  return rest;
}

/**
 * The embedded database's client for drizzle. drizzle-orm hands PGlite its parsers with every
 * statement, and PGlite then copies its own table of ~320 parsers into a new object per statement
 * (`{ ...this.parsers, ...options.parsers }`): 0.1–0.3 ms each, about a tenth of a signed-in page's
 * CPU (docs/decisions/0022-page-cache.md, addendum 3). This client holds drizzle's parsers itself
 * (set after start-up, which registers the array types) and leaves drizzle's copy out of each query.
 */
class DrizzlePGlite extends PGlite {
  /** Why the database stopped for good (a PANIC), once it has. */
  private stoppedBy: string | undefined;
  private onStopped: ((reason: string) => void) | undefined;

  static async open(options: PGliteOptions, onStopped?: (reason: string) => void): Promise<DrizzlePGlite> {
    // pg_trgm: the trigram index of Blog Management's title search (drizzle/0039_29-title-trgm.sql).
    const client = new DrizzlePGlite({ ...options, extensions: { pg_trgm } });
    await client.waitReady;
    for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = asText;
    client.onStopped = onStopped;
    return client;
  }

  /**
   * Every statement, the transaction's BEGIN/COMMIT/ROLLBACK and the protocol's Sync pass here.
   * PostgreSQL PANICs when it cannot write its log (a full disk): in PGlite the WebAssembly
   * instance is then in no state to run anything, and the next statement spins forever on the one
   * thread every request needs. So after a PANIC (or a FATAL) nothing reaches it again: every
   * statement fails at once as "the database is shutting down" (57P01, answered 503 like a
   * PostgreSQL server that is away), and `onStopped` is told once.
   */
  override async execProtocolStream(...args: Parameters<PGlite["execProtocolStream"]>): ReturnType<PGlite["execProtocolStream"]> {
    this.throwIfStopped();
    try {
      return await super.execProtocolStream(...args);
    } catch (error) {
      this.noteIfFatal(error);
      throw error;
    }
  }

  override async execProtocol(...args: Parameters<PGlite["execProtocol"]>): ReturnType<PGlite["execProtocol"]> {
    this.throwIfStopped();
    try {
      return await super.execProtocol(...args);
    } catch (error) {
      this.noteIfFatal(error);
      throw error;
    }
  }

  override async close(): Promise<void> {
    // A stopped instance cannot shut down cleanly (that would run it again); what it had committed is
    // on disk already, and the next start recovers from the log as after a crash.
    if (this.stoppedBy === undefined) await super.close();
  }

  private throwIfStopped() {
    if (this.stoppedBy !== undefined) throw new EmbeddedDatabaseStopped(this.stoppedBy);
  }

  private noteIfFatal(error: unknown) {
    const severity = error && typeof error === "object" && "severity" in error ? error.severity : undefined;
    const fatal = severity === "PANIC" || severity === "FATAL" || error instanceof WebAssembly.RuntimeError;
    if (!fatal || this.stoppedBy !== undefined) return;
    this.stoppedBy = error instanceof Error ? error.message : String(error);
    this.onStopped?.(this.stoppedBy);
  }

  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return super.query<T>(query, params, withoutDrizzleParsers(options));
  }

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) =>
      callback({
        query: (query, params, options) => tx.query(query, params, withoutDrizzleParsers(options)),
        sql: (strings, ...params) => tx.sql(strings, ...params),
        exec: (query, options) => tx.exec(query, options),
        rollback: () => tx.rollback(),
        listen: (channel, onNotify) => tx.listen(channel, onNotify),
        get closed() {
          return tx.closed;
        },
      }),
    );
  }
}

/** A statement refused because the embedded database stopped for good: SQLSTATE 57P01 (shutting down), so answered 503. */
export class EmbeddedDatabaseStopped extends Error {
  readonly code = "57P01";
  constructor(reason: string) {
    super(`The embedded database has stopped (${reason}); the server is restarting.`);
    this.name = "EmbeddedDatabaseStopped";
  }
}

/** DATABASE_TIMEOUT_MS's default (app/server/env.server.ts). */
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    // Imported only here: a site on the embedded database never loads pg (docs/decisions/0040-server-memory.md).
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    pool.on("error", (error) => logger.warn({ reason: error.message }, "postgres connection lost"));
    // The pool listens for errors only on idle connections. One checked out (inside a transaction,
    // between two statements) when PostgreSQL ends it would otherwise emit an unhandled 'error' and
    // end the process; its pending or next statement fails, and the pool drops it on release.
    pool.on("connect", (client) => client.on("error", (error) => logger.warn({ reason: error.message }, "postgres connection lost")));
    const db = drizzlePg({ client: pool, schema });
    const listener = createPgListener(options.url);
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await pool.query("select 1");
      },
      listen: listener.listen,
      close: async () => {
        await listener.close();
        await pool.end();
      },
    };
  }
  let releaseLock: (() => void) | undefined;
  let client: PGlite;
  if (options.kind === "pglite") {
    fs.mkdirSync(options.dataDir, { recursive: true });
    // PGlite is single-process: a second process on the same directory would corrupt it.
    releaseLock = acquireDirLock(options.dataDir);
    try {
      client = await DrizzlePGlite.open(
        { dataDir: path.join(options.dataDir, "pglite"), postgresqlconf: PGLITE_POSTGRESQL_CONF },
        options.onStopped,
      );
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    // loadDataDir: a dumpDataDir() tarball (tests start from a migrated one instead of running initdb each time).
    client = await DrizzlePGlite.open({ postgresqlconf: PGLITE_POSTGRESQL_CONF, loadDataDir: options.loadDataDir });
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseLock?.();
      }
    },
  };
}

/** Applies every pending migration from ./drizzle. Safe to run from several instances at once. */
export async function migrateDatabase(database: Database): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  if (database.kind === "pglite") {
    await migratePglite(database.db as Parameters<typeof migratePglite>[0], config);
    return;
  }
  const { migrate: migratePg } = await import("drizzle-orm/node-postgres/migrator");
  // Serialize concurrent start-ups of several instances on one PostgreSQL database.
  await database.db.execute(sql`select pg_advisory_lock(727001)`);
  try {
    await migratePg(database.db as Parameters<typeof migratePg>[0], config);
  } finally {
    await database.db.execute(sql`select pg_advisory_unlock(727001)`);
  }
}

// The handle lives on globalThis so that Vite's module reloading in development keeps one database.
const holder = globalThis as typeof globalThis & { __appDatabase?: Database };

export function setDatabase(database: Database | undefined) {
  holder.__appDatabase = database;
}

export function getDatabase(): Database {
  const database = holder.__appDatabase;
  if (!database) throw new Error("Database is not open yet");
  return database;
}

export function getDb(): Db {
  return getDatabase().db;
}
