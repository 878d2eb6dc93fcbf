import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "./logger.server";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { log: pino({ ...loggerOptions, level: "info" }, stream), lines };
}

describe("logger redaction", () => {
  it("never writes passwords, tokens, secrets, cookies or authorization headers", () => {
    const { log, lines } = capture();
    log.info({ password: "hunter2-secret", token: "reset-token-123", user: { email: "a@b.c", newPassword: "new-secret-pw" } }, "one");
    log.info({ req: { headers: { cookie: "sid=session-cookie", authorization: "Bearer api-key-xyz", host: "example.com" } } }, "two");
    log.info({ mail: { to: "a@b.c", token: "mail-token-456", secret: "smtp-secret" }, verificationToken: "v-token" }, "three");
    const text = lines.join("");
    for (const secret of [
      "hunter2-secret",
      "reset-token-123",
      "new-secret-pw",
      "session-cookie",
      "api-key-xyz",
      "mail-token-456",
      "smtp-secret",
      "v-token",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("a@b.c");
    expect(text).toContain("example.com");
    expect(text).toContain("[redacted]");
  });
});
