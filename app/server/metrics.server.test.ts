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
});
