import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

describe("env", () => {
  it("has working defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.SEED_DEMO_CONTENT).toBe(true);
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.dataDir.endsWith("/data")).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("names the malformed variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ INITIAL_ADMIN_EMAIL: "nope" })).toThrow(/INITIAL_ADMIN_EMAIL/);
    expect(() => parseEnv({ SEED_DEMO_CONTENT: "maybe" })).toThrow(/SEED_DEMO_CONTENT/);
    expect(() => parseEnv({ TURNSTILE_SITE_KEY: "abc" })).toThrow(/TURNSTILE_SECRET_KEY/);
  });

  it("reads booleans and trims the public URL", () => {
    const env = parseEnv({ SEED_DEMO_CONTENT: "false", PUBLIC_URL: "https://example.com/", PORT: "8080" });
    expect(env.SEED_DEMO_CONTENT).toBe(false);
    expect(env.publicUrl).toBe("https://example.com");
  });
});
