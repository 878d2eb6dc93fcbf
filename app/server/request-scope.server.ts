import { randomUUID } from "node:crypto";

/**
 * Work done once per HTTP request and shared by every loader and middleware that serves it (the
 * session's user, read by the root loader, the admin middleware, the layout's and the page's loaders).
 *
 * React Router hands each loader its own copy of the Fetch request (it strips `?index` and `_routes`
 * into a `new Request`), so a memo keyed by the Request object misses for every loader but one. The
 * page handler (server/page-handler.ts) therefore names each request it hands React Router with
 * REQUEST_SCOPE_HEADER, which the copies keep, and closes the scope when the response ends. The header
 * is always overwritten there, so a value sent by a client never counts. A request without an open
 * scope (unit tests, scripts) is memoized per Request object.
 */
export const REQUEST_SCOPE_HEADER = "x-app-request-scope";

const openScopes = new Set<string>();
const onClose = new Set<(id: string) => void>();

/** Opens a scope for one request: its id goes in REQUEST_SCOPE_HEADER; `close` forgets what was memoized for it. */
export function openRequestScope(): { id: string; close: () => void } {
  // Unguessable, so a request that reaches a loader without passing the page handler (whose header a
  // client could have set) can never join another visitor's open scope.
  const id = randomUUID();
  openScopes.add(id);
  return {
    id,
    close: () => {
      if (!openScopes.delete(id)) return;
      for (const forget of onClose) forget(id);
    },
  };
}

/** A per-request memo: `memo(request, compute)` runs `compute` once per request (its scope, else the object). */
export function requestMemo<T>(): (request: Request, compute: () => T) => T {
  const byScope = new Map<string, { value: T }>();
  const byRequest = new WeakMap<Request, { value: T }>();
  onClose.add((id) => byScope.delete(id));
  return (request, compute) => {
    const id = request.headers.get(REQUEST_SCOPE_HEADER);
    const scoped = id !== null && openScopes.has(id);
    const known = scoped ? byScope.get(id) : byRequest.get(request);
    if (known) return known.value;
    const entry = { value: compute() };
    if (scoped) byScope.set(id, entry);
    else byRequest.set(request, entry);
    return entry.value;
  };
}
