import fs from "node:fs";
import { redirect } from "react-router";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  DATABASE_UNAVAILABLE,
  DISK_FULL,
  errorAnswer,
  RateLimitError,
  RETRY_AFTER_UNAVAILABLE_SECONDS,
  ServiceUnavailableError,
  UNEXPECTED_ERROR,
  ValidationError,
} from "./errors.server";
import { invariantResponse, throwPageFailure, apiFailure, withPageFailures } from "./failure-reply.server";

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("errorAnswer", () => {
  it("answers a database that is away 503 with Retry-After, whatever wraps the connection error", () => {
    const unavailable = { status: 503, message: DATABASE_UNAVAILABLE, headers: { "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS) } };
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(errorAnswer(new Error("Failed query: select 1", { cause: refused }))).toEqual(unavailable);
    expect(errorAnswer(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toEqual(
      unavailable,
    );
    expect(errorAnswer(new Error("Failed query", { cause: new Error("Connection terminated unexpectedly") }))).toEqual(unavailable);
    expect(errorAnswer(new Error("timeout exceeded when trying to connect"))).toEqual(unavailable);
    expect(errorAnswer(new ServiceUnavailableError("Uploads are unavailable", 30))).toEqual({
      status: 503,
      message: "Uploads are unavailable",
      headers: { "Retry-After": "30" },
    });
    // A statement the database refused is not an outage.
    expect(errorAnswer(Object.assign(new Error("syntax error"), { code: "42601" })).status).toBe(500);
  });

  it("keeps a typed error's status, message and field errors; a 429 says when to retry", () => {
    expect(errorAnswer(new ValidationError("Title is required", { title: ["Title is required"] }))).toEqual({
      status: 400,
      message: "Title is required",
      fieldErrors: { title: ["Title is required"] },
      headers: {},
    });
    expect(errorAnswer(new RateLimitError("Slow down", 90))).toMatchObject({ status: 429, headers: { "Retry-After": "90" } });
  });

  it("answers a full disk 507 with what to do: the kernel's own ENOSPC (a write to /dev/full) and PostgreSQL's disk_full", () => {
    const enospc = thrown(() => fs.writeFileSync("/dev/full", "x"));
    expect(enospc).toMatchObject({ code: "ENOSPC" });
    const full = { status: 507, message: DISK_FULL, headers: { "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS) } };
    expect(errorAnswer(enospc)).toEqual(full);
    expect(errorAnswer(new Error("Failed query", { cause: Object.assign(new Error("could not extend file"), { code: "53100" }) }))).toEqual(
      full,
    );
  });

  it("turns anything else into a plain 500 that reveals nothing", () => {
    const answer = errorAnswer(new Error("password=hunter2 at db.ts:12"));
    expect(answer).toEqual({ status: 500, message: UNEXPECTED_ERROR, headers: {} });
  });
});

describe("apiFailure", () => {
  it("answers JSON { error, fieldErrors } with the status and headers", async () => {
    const response = apiFailure(new ValidationError("Bad email", { email: ["Bad email"] }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Bad email", fieldErrors: { email: ["Bad email"] } });
    const limited = apiFailure(new RateLimitError(undefined, 30));
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(await apiFailure("boom").json()).toEqual({ error: UNEXPECTED_ERROR });
  });
});

describe("page routes", () => {
  it("throwPageFailure throws data(message) with the status; redirects pass through untouched", () => {
    expect(thrown(() => throwPageFailure(new ConflictError("Taken")))).toMatchObject({ data: "Taken", init: { status: 409 } });
    const location = redirect("/auth");
    expect(thrown(() => throwPageFailure(location))).toBe(location);
    expect(thrown(() => throwPageFailure(new TypeError("x is undefined")))).toMatchObject({
      data: UNEXPECTED_ERROR,
      init: { status: 500 },
    });
  });

  it("withPageFailures returns the work's value or throws its error as data()", async () => {
    expect(await withPageFailures(async () => 42)).toBe(42);
    await expect(withPageFailures(() => Promise.reject(new ValidationError("Nope")))).rejects.toMatchObject({
      data: "Nope",
      init: { status: 400 },
    });
  });

  it("invariantResponse throws data(message) with 400 unless told otherwise, and passes when the condition holds", () => {
    expect(thrown(() => invariantResponse(false, "Missing id"))).toMatchObject({ data: "Missing id", init: { status: 400 } });
    expect(thrown(() => invariantResponse(0, "Gone", { status: 404 }))).toMatchObject({ data: "Gone", init: { status: 404 } });
    expect(() => invariantResponse("yes", "unused")).not.toThrow();
  });
});
