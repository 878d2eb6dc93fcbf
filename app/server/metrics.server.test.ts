import { describe, expect, it } from "vitest";
import { isMetricsTokenValid, recordPageCacheLookup, recordRequest, renderMetrics } from "./metrics.server";

describe("metrics", () => {
  it("accepts only the exact bearer token", () => {
    const token = "metrics-token-0123456789abcdef";
    expect(isMetricsTokenValid(`Bearer ${token}`, token)).toBe(true);
    expect(isMetricsTokenValid(`bearer ${token}`, token)).toBe(true);
    expect(isMetricsTokenValid(undefined, token)).toBe(false);
    expect(isMetricsTokenValid(token, token)).toBe(false);
    expect(isMetricsTokenValid(`Bearer ${token}x`, token)).toBe(false);
    expect(isMetricsTokenValid(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(isMetricsTokenValid("Bearer ", token)).toBe(false);
  });

  it("counts page cache hits and misses and exposes the hit ratio", async () => {
    recordPageCacheLookup(true);
    recordPageCacheLookup(true);
    recordPageCacheLookup(true);
    recordPageCacheLookup(false);
    recordRequest("GET", "/7fs/:category", 200, 0.02);
    const { body, contentType } = await renderMetrics();
    expect(contentType).toContain("text/plain");
    expect(body).toMatch(/^page_cache_lookups_total\{result="hit"\} 3$/m);
    expect(body).toMatch(/^page_cache_lookups_total\{result="miss"\} 1$/m);
    expect(body).toMatch(/^page_cache_hit_ratio 0\.75$/m);
    expect(body).toMatch(/^http_request_duration_seconds_bucket\{le="0\.025",method="GET",route="\/7fs\/:category",status="200"\} 1$/m);
  });

  it("writes the request count and duration histogram as prom-client did: cumulative buckets, +Inf, sum, count, escaped labels", async () => {
    const route = 'odd "route" \\ here';
    recordRequest("POST", route, 303, 0.003);
    recordRequest("POST", route, 303, 0.3);
    recordRequest("POST", route, 303, 12);
    const { body } = await renderMetrics();
    const labels = 'method="POST",route="odd \\"route\\" \\\\ here",status="303"';
    const lines = body.split("\n").filter((line) => line.includes(labels));
    expect(lines).toEqual([
      `http_requests_total{${labels}} 3`,
      ...[
        ["0.005", 1],
        ["0.01", 1],
        ["0.025", 1],
        ["0.05", 1],
        ["0.1", 1],
        ["0.25", 1],
        ["0.5", 2],
        ["1", 2],
        ["2.5", 2],
        ["5", 2],
        ["10", 2],
        ["+Inf", 3],
      ].map(([le, n]) => `http_request_duration_seconds_bucket{le="${le}",${labels}} ${n}`),
      `http_request_duration_seconds_sum{${labels}} 12.303`,
      `http_request_duration_seconds_count{${labels}} 3`,
    ]);
    expect(body).toContain("# TYPE http_requests_total counter\n");
    expect(body).toContain("# TYPE http_request_duration_seconds histogram\n");
  });
});
