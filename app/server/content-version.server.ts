import { eq, sql } from "drizzle-orm";
import { getDatabase, type Database, type Db } from "~/server/db/client.server";
import { notifySql } from "~/server/db/notify.server";
import { contentVersion } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";

/**
 * The content version (docs/decisions/0021-content-version.md): one counter in the database,
 * bumped in the same transaction as every write that changes public output. Caches of public
 * output (pages, settings, the home page) key on it. Every instance learns of a bump by
 * LISTEN/NOTIFY (the NOTIFY is sent in the bump's transaction, so it arrives only if the write
 * commits) and, in case a notification is lost, by re-reading the counter every second.
 */
export const CONTENT_VERSION_CHANNEL = "app_content_version";

/**
 * Call inside the transaction of a write that changes public output; returns the new version
 * (visible to others only once the transaction commits).
 */
export async function bumpContentVersion(tx: Db): Promise<number> {
  const [row] = await tx
    .insert(contentVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: contentVersion.id, set: { version: sql`${contentVersion.version} + 1` } })
    .returning({ version: contentVersion.version });
  if (!row) throw new Error("content version bump returned no row");
  await tx.execute(notifySql(CONTENT_VERSION_CHANNEL, String(row.version)));
  return row.version;
}

/** The committed version, read from the database (0 before the first bump). */
export async function readContentVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, 1));
  return row?.version ?? 0;
}

export type ContentVersionListener = (version: number) => void;

export interface ContentVersionWatcherOptions {
  database?: () => Database;
  /** Fallback re-read interval (default CONTENT_VERSION_POLL_MS, 1 s). */
  pollMs?: number;
  /** Listen for NOTIFY (default true); false leaves only the re-read, for tests of the fallback. */
  listen?: boolean;
}

/** One instance's view of the version: a value in memory, kept current by NOTIFY and a re-read. */
export class ContentVersionWatcher {
  private readonly database: () => Database;
  private readonly pollMs: number;
  private readonly useListen: boolean;
  private readonly listeners = new Set<ContentVersionListener>();
  private value: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = true;

  constructor(options: ContentVersionWatcherOptions = {}) {
    this.database = options.database ?? getDatabase;
    this.pollMs = options.pollMs ?? getEnv().CONTENT_VERSION_POLL_MS;
    this.useListen = options.listen ?? true;
  }

  /** Reads the current version and starts following it. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.useListen) {
      try {
        this.unlisten = await this.database().listen(CONTENT_VERSION_CHANNEL, (payload) => {
          const version = Number(payload);
          if (Number.isSafeInteger(version)) this.set(version);
        });
      } catch (error) {
        logger.warn({ err: error }, "content version: could not listen for changes; re-reading every interval only");
      }
    }
    // Read after listening, so a bump committed in between is not missed.
    await this.refresh();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
  }

  /** The last version this instance knows; throws before start() finished. */
  current(): number {
    if (this.value === undefined) throw new Error("The content version is not known yet (start the watcher first)");
    return this.value;
  }

  /** Calls `listener` with each newer version; returns a function that unsubscribes. */
  onChange(listener: ContentVersionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the version from the database now (also done every pollMs). */
  async refresh(): Promise<number> {
    this.set(await readContentVersion(this.database().db));
    return this.current();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.refresh()
        .catch((error: unknown) => logger.warn({ err: error }, "content version re-read failed"))
        .finally(() => this.schedule());
    }, this.pollMs);
    this.timer.unref();
  }

  /** Versions only grow: a late notification or re-read never moves the value back. */
  private set(version: number): void {
    if (this.value !== undefined && version <= this.value) return;
    this.value = version;
    for (const listener of this.listeners) {
      try {
        listener(version);
      } catch (error) {
        logger.error({ err: error }, "content version listener failed");
      }
    }
  }
}

// One watcher per process; on globalThis so that Vite's module reloading in development keeps it.
const holder = globalThis as typeof globalThis & {
  __contentVersion?: { watcher: ContentVersionWatcher | undefined; listeners: Set<ContentVersionListener> };
};
const state = (holder.__contentVersion ??= { watcher: undefined, listeners: new Set() });

/** Server start-up (after migrations): reads the version and follows it. */
export async function startContentVersion(): Promise<void> {
  if (state.watcher) return;
  const watcher = new ContentVersionWatcher();
  watcher.onChange((version) => {
    for (const listener of state.listeners) {
      try {
        listener(version);
      } catch (error) {
        logger.error({ err: error }, "content version listener failed");
      }
    }
  });
  state.watcher = watcher;
  await watcher.start();
}

export async function stopContentVersion(): Promise<void> {
  const watcher = state.watcher;
  state.watcher = undefined;
  await watcher?.stop();
}

/** This instance's current content version, from memory (cheap enough to call per request). */
export function currentContentVersion(): number {
  if (!state.watcher) throw new Error("The content version is not being followed (startContentVersion was not called)");
  return state.watcher.current();
}

/**
 * Re-reads the committed version now. A write's own NOTIFY reaches this instance a moment after
 * commit; a caller that must see its write reflected before answering (e.g. the page cache after a
 * POST) awaits this instead.
 */
export async function refreshContentVersion(): Promise<number> {
  if (!state.watcher) throw new Error("The content version is not being followed (startContentVersion was not called)");
  return state.watcher.refresh();
}

/** Calls `listener` with every newer version this instance learns of; returns an unsubscribe function. */
export function onContentVersionChange(listener: ContentVersionListener): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/**
 * `read` kept in memory per content version and database: every write that changes public output
 * bumps the version, so a save on any instance is read again everywhere on the next request. Outside
 * a server (scripts, unit tests) no version is followed and every call reads. A failed read is not kept.
 */
export function perContentVersion<T>(read: (db: Db) => Promise<T>): (db: Db) => Promise<T> {
  let cache: { version: number; db: Db; value: Promise<T> } | undefined;
  return (db) => {
    if (!state.watcher) return read(db);
    const version = state.watcher.current();
    if (cache?.version !== version || cache.db !== db) {
      const value = read(db);
      const entry = { version, db, value };
      cache = entry;
      value.catch(() => {
        if (cache === entry) cache = undefined;
      });
    }
    return cache.value;
  };
}
