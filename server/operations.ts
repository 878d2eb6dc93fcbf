import { randomUUID } from "node:crypto";
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { pinoHttp } from "pino-http";
import { getSiteSettings } from "~/features/settings/settings.server";
import { uploadKeyOf } from "~/features/uploads/uploads.server";
import { getDatabase, type Database } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { checkReadiness } from "~/server/health.server";
import { logger } from "~/server/logger.server";
import { isMetricsTokenValid, recordRequest, renderMetrics } from "~/server/metrics.server";
import { getStorage } from "~/server/storage.server";
import { getRouteTable, routePatternOf } from "./route-table";

// One access log line per request: method, path (never the query string, which can carry a reset
// token), status, duration and a request id (also sent back as X-Request-Id). No headers, no bodies.
export const accessLog = pinoHttp({
  logger,
  genReqId: (_req, res) => {
    const id = randomUUID();
    res.setHeader("X-Request-Id", id);
    return id;
  },
  serializers: {
    req: (req: { id: unknown; method: unknown; url: unknown }) => ({
      id: req.id,
      method: req.method,
      path: String(req.url).split("?")[0],
    }),
    res: (res: { statusCode: unknown }) => ({ status: res.statusCode }),
  },
  customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
  customSuccessMessage: () => "request",
  customErrorMessage: () => "request failed",
  autoLogging: { ignore: (req) => req.url === "/healthz" },
});

// ---- Operations (docs/decisions/0023-operations-endpoints.md): liveness, readiness and Prometheus metrics.

const OPERATIONS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** Times each request and labels it by its route for the metrics. */
export const measureRequest: RequestHandler = async (req, res, next) => {
  const started = process.hrtime.bigint();
  try {
    const route = OPERATIONS_PATHS.has(req.path) ? req.path : routePatternOf(await getRouteTable(), req.path);
    // Stored with a cached page, so its hits are counted under the same route (page-handler.ts).
    res.locals.metricsRoute = route;
    res.once("finish", () => recordRequest(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  } catch (error) {
    next(error);
  }
};

/**
 * /favicon.ico, which browsers and feed readers ask for without a link: the .ico made from the
 * owner's favicon when there is one, else (next) the default file. server.js mounts it before the
 * static files; here it serves the development server.
 */
export async function siteFavicon(req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    const { icons } = await getSiteSettings();
    const key = icons ? uploadKeyOf(icons.ico) : null;
    const file = key ? await getStorage().get(key) : null;
    if (!file) return next();
    res.status(200).type("image/x-icon").set("Cache-Control", "public, max-age=3600").send(file.body);
  } catch (error) {
    next(error);
  }
}

// Alive: answers without touching the database, so a database outage never restarts every instance.
export const operations = Router();

operations.get("/healthz", (_req, res) => {
  res.status(200).json({ status: "ok" });
});

operations.get("/readyz", async (_req, res) => {
  let database: Database | undefined;
  try {
    database = getDatabase();
  } catch {
    database = undefined;
  }
  const readiness = await checkReadiness(database, getStorage);
  res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? "ready" : "unavailable", ...readiness.checks });
});

operations.get("/metrics", async (req, res, next) => {
  const token = getEnv().METRICS_TOKEN;
  // Off unless configured, and indistinguishable from any unknown address without the token.
  if (!token || !isMetricsTokenValid(req.headers.authorization, token)) return next();
  try {
    const { body, contentType } = await renderMetrics();
    res.status(200).type(contentType).set("Cache-Control", "no-store").send(body);
  } catch (error) {
    next(error);
  }
});
