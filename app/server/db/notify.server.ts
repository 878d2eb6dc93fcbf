import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import { logger } from "../logger.server";

/**
 * LISTEN/NOTIFY, the way instances on one database tell each other that something changed (jobs
 * enqueued, content version bumped). NOTIFY is transactional: a notification sent inside a
 * transaction is delivered only when it commits, never when it rolls back. A listener may miss
 * notifications while its connection is down, so every user also re-reads on a timer.
 */
export type NotifyListener = (payload: string) => void;
/** Subscribes to a channel; resolves once listening, to a function that unsubscribes. */
export type Listen = (channel: string, onNotify: NotifyListener) => Promise<() => Promise<void>>;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid notification channel name: ${channel}`);
  return channel;
}

/** The statement that sends a notification; run it in the transaction whose commit it announces. */
export function notifySql(channel: string, payload: string): SQL {
  return sql`select pg_notify(${checkChannel(channel)}, ${payload})`;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * One dedicated PostgreSQL connection per process for LISTEN (a pooled connection cannot listen:
 * it goes back to the pool). Connected on first use; reconnects with backoff and listens again.
 */
export function createPgListener(url: string): { listen: Listen; close: () => Promise<void> } {
  const channels = new Map<string, Set<NotifyListener>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let retryMs = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const dispatch = (message: pg.Notification) => {
    for (const listener of channels.get(message.channel) ?? []) {
      try {
        listener(message.payload ?? "");
      } catch (error) {
        logger.error({ err: error, channel: message.channel }, "notification listener failed");
      }
    }
  };

  const lost = (failed: pg.Client, error?: unknown) => {
    if (client !== failed) return;
    client = undefined;
    failed.removeAllListeners("notification");
    void failed.end().catch(() => undefined);
    if (closed) return;
    logger.warn({ err: error, retryMs }, "database notification connection lost; reconnecting");
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => {
      void connect().catch(() => undefined);
    }, retryMs);
    reconnectTimer.unref();
    retryMs = Math.min(RECONNECT_MAX_MS, retryMs * 2);
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      // pg is loaded only by sites on PostgreSQL (docs/decisions/0040-server-memory.md).
      const { default: postgres } = await import("pg");
      const next = new postgres.Client({ connectionString: url });
      next.on("error", (error) => lost(next, error));
      next.on("end", () => lost(next));
      next.on("notification", dispatch);
      try {
        await next.connect();
        for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        await next.end().catch(() => undefined);
        client = next;
        lost(next, error);
        throw error;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        throw new Error("listener closed");
      }
      client = next;
      retryMs = RECONNECT_MIN_MS;
      return next;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const listen: Listen = async (channel, onNotify) => {
    checkChannel(channel);
    let set = channels.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      channels.set(channel, set);
    }
    set.add(onNotify);
    const connected = await connect();
    if (first) await connected.query(`LISTEN ${channel}`);
    return async () => {
      set.delete(onNotify);
      if (set.size > 0 || channels.get(channel) !== set) return;
      channels.delete(channel);
      await client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  };

  return {
    listen,
    close: async () => {
      closed = true;
      clearTimeout(reconnectTimer);
      await connecting?.catch(() => undefined);
      const open = client;
      client = undefined;
      channels.clear();
      if (open) {
        open.removeAllListeners("notification");
        await open.end().catch(() => undefined);
      }
    },
  };
}
