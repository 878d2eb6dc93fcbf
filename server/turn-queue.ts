/**
 * Starts waiting work one item per turn of the event loop, in arrival order.
 *
 * Since libuv 1.45 (Node 20) a listening socket accepts one connection per turn of the event loop
 * (libuv/libuv#3696). On the embedded database a page's loaders and its render are one long run of
 * promise continuations (PGlite answers synchronously), so every request read in a turn was served
 * within that same turn: with 50 busy keep-alive connections a turn lasted ~0.4 s and a new
 * connection waited in the kernel's accept queue for seconds (the p99 of signed-in pages), while
 * connections already open were served again and again. Started one per turn, a request costs one
 * turn, the next turn accepts the next connection and reads every open one, and requests are served
 * in the order they arrived. A turn with nothing else to do is short, so this limits no concurrency
 * when the work waits on the network (PostgreSQL).
 */
export function createTurnQueue(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const startOne = () => {
    scheduled = false;
    waiting.shift()?.();
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    scheduled = true;
    setImmediate(startOne);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) schedule();
    });
}
