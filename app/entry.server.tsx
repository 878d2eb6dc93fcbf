import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type EntryContext } from "react-router";
import { noteUnavailable, unavailableAnswer } from "~/server/failure-reply.server";
import { logger } from "~/server/logger.server";
import { requestNonce } from "~/server/nonce.server";

export const streamTimeout = 5_000;

/**
 * React Router's default Node entry, plus the response's CSP nonce (server/app.ts) on every inline
 * script: React's own streaming scripts (renderToPipeableStream) and React Router's (ServerRouter's
 * nonce is the default of <Scripts>, <ScrollRestoration> and <Links> in app/root.tsx).
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  const unavailable = unavailableAnswer(request);
  if (unavailable) {
    // A loader failed because the database is away: the error page says so, with its status (the
    // page handler sets the 503 and Retry-After on the response).
    responseStatusCode = unavailable.status;
    const errors = routerContext.staticHandlerContext.errors ?? {};
    for (const routeId of Object.keys(errors)) {
      errors[routeId] = { status: unavailable.status, statusText: "Service Unavailable", internal: false, data: unavailable.message };
    }
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = requestNonce(request);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />, {
      nonce: nonce || undefined,
      [readyOption]() {
        shellRendered = true;
        const body = lowPriorityModulePreloads(() => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        });
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        pipe(body);
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors in the shell are logged by React Router; these happened while streaming.
        if (shellRendered) logger.error({ err: error }, "streaming render failed");
      },
    });
  });
}

/**
 * React Router's default (the error, logged unless the visitor went away), except for an error that
 * says a part is away: noted for the request, which is answered 503 with Retry-After (failure-reply.server).
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (noteUnavailable(request, error) || request.signal.aborted) return;
  console.error(isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error);
}

const MODULE_PRELOAD = 'rel="modulepreload"';
const LOW_PRIORITY_MODULE_PRELOAD = 'rel="modulepreload" fetchpriority="low"';

/**
 * The page is painted from its HTML and stylesheet; its JavaScript only hydrates it. React Router
 * preloads every module at the browser's high priority, so on a slow connection the scripts compete
 * with the stylesheet and the first image for the first paint. Marked low, they load right after.
 * A tag cut between two chunks is completed from the held-back end of the previous one.
 */
function lowPriorityModulePreloads(onEnd: () => void) {
  const decoder = new StringDecoder("utf8");
  let tail = "";
  const pass = (text: string, end: boolean) => {
    const replaced = text.replaceAll(MODULE_PRELOAD, LOW_PRIORITY_MODULE_PRELOAD);
    // Hold back only an end that may be the start of a cut tag.
    let keep = end ? 0 : MODULE_PRELOAD.length - 1;
    while (keep > 0 && !replaced.endsWith(MODULE_PRELOAD.slice(0, keep))) keep--;
    tail = replaced.slice(replaced.length - keep);
    return replaced.slice(0, replaced.length - keep);
  };
  let batch = "";
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      batch += pass(tail + decoder.write(chunk), false);
      callback();
    },
    flush(callback) {
      onEnd();
      const rest = batch + pass(tail + decoder.end(), true);
      batch = "";
      callback(null, rest);
    },
  });
  // React writes in 4 KB pieces and calls its destination's flush() when it has written all it has
  // ready (the hook compression middleware uses): each batch goes on as one chunk, so the streams,
  // compression and the socket after it handle one piece per batch instead of a dozen, and the first
  // byte leaves no later than before.
  return Object.assign(transform, {
    flush() {
      if (batch === "") return;
      transform.push(batch);
      batch = "";
    },
  });
}
