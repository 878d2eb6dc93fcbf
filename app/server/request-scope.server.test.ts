import { describe, expect, it } from "vitest";
import { openRequestScope, REQUEST_SCOPE_HEADER, requestMemo } from "./request-scope.server";

/** What React Router does before each loader: a new Request with the same URL and headers. */
function copyOf(request: Request): Request {
  return new Request(new URL(request.url).href, { method: request.method, headers: request.headers, signal: request.signal });
}

describe("request scope", () => {
  it("computes once for every copy of a request while its scope is open, and again once it is closed", () => {
    const memo = requestMemo<number>();
    const scope = openRequestScope();
    const request = new Request("http://localhost/admin", { headers: { [REQUEST_SCOPE_HEADER]: scope.id } });
    let runs = 0;
    const compute = () => ++runs;
    expect(memo(request, compute)).toBe(1);
    expect(memo(copyOf(request), compute)).toBe(1);
    expect(memo(copyOf(copyOf(request)), compute)).toBe(1);
    scope.close();
    expect(memo(copyOf(request), compute)).toBe(2);
  });

  it("never shares between two requests, nor with a request naming a scope that is not open", () => {
    const memo = requestMemo<string>();
    const first = openRequestScope();
    const second = openRequestScope();
    expect(first.id).not.toBe(second.id);
    const a = new Request("http://localhost/", { headers: { [REQUEST_SCOPE_HEADER]: first.id } });
    const b = new Request("http://localhost/", { headers: { [REQUEST_SCOPE_HEADER]: second.id } });
    expect(memo(a, () => "a")).toBe("a");
    expect(memo(b, () => "b")).toBe("b");
    // A client cannot join someone else's scope after it ended (the page handler overwrites the header anyway).
    first.close();
    const forged = new Request("http://localhost/", { headers: { [REQUEST_SCOPE_HEADER]: first.id } });
    expect(memo(forged, () => "forged")).toBe("forged");
    expect(memo(copyOf(forged), () => "other")).toBe("other");
    second.close();
  });

  it("memoizes per Request object when no scope is open (unit tests, scripts)", () => {
    const memo = requestMemo<number>();
    const request = new Request("http://localhost/");
    let runs = 0;
    expect(memo(request, () => ++runs)).toBe(1);
    expect(memo(request, () => ++runs)).toBe(1);
    expect(memo(copyOf(request), () => ++runs)).toBe(2);
  });
});
