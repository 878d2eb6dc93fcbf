import { describe, expect, it } from "vitest";
import { contactFieldErrors, contactSchema } from "./contact-schema";
import { firstName } from "./contact-texts";

function errorsOf(input: { name: string; email: string; message: string }) {
  const result = contactSchema.safeParse(input);
  return result.success ? {} : contactFieldErrors(result.error);
}

describe("contact schema (SPEC §5)", () => {
  const valid = { name: "Ada Lovelace", email: "ada@example.com", message: "Hello" };

  it("accepts a valid message and trims every field", () => {
    expect(contactSchema.parse({ name: "  Ada ", email: " ada@example.com ", message: " Hi \n" })).toEqual({
      name: "Ada",
      email: "ada@example.com",
      message: "Hi",
    });
  });

  it("gives the exact messages of the spec", () => {
    expect(errorsOf({ name: "   ", email: "nope", message: "" })).toEqual({
      name: ["Name is required"],
      email: ["Invalid email address"],
      message: ["Message is required"],
    });
    expect(errorsOf({ ...valid, name: "x".repeat(101) }).name).toEqual(["Name must be less than 100 characters"]);
    expect(errorsOf({ ...valid, email: `${"a".repeat(250)}@example.com` }).email).toEqual(["Email must be less than 255 characters"]);
    expect(errorsOf({ ...valid, message: "m".repeat(1001) }).message).toEqual(["Message must be less than 1000 characters"]);
  });

  it("allows exactly the limits", () => {
    expect(errorsOf({ name: "x".repeat(100), email: `${"a".repeat(243)}@example.com`, message: "m".repeat(1000) })).toEqual({});
  });

  it("greets by the first word of the name", () => {
    expect(firstName("  Ada   Lovelace ")).toBe("Ada");
    expect(firstName("Grace")).toBe("Grace");
  });
});

describe("client id", () => {
  it("is a v4 UUID the server accepts, also where crypto.randomUUID is unavailable", async () => {
    const { newClientId } = await import("./client-id");
    const { contactRequestSchema } = await import("./contact-schema");
    const valid = { name: "A", email: "a@example.com", message: "m" };
    expect(contactRequestSchema.safeParse({ ...valid, clientId: newClientId() }).success).toBe(true);
    const original = globalThis.isSecureContext;
    Object.defineProperty(globalThis, "isSecureContext", { value: false, configurable: true });
    try {
      const ids = Array.from({ length: 50 }, () => newClientId());
      expect(new Set(ids).size).toBe(50);
      for (const id of ids) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(contactRequestSchema.safeParse({ ...valid, clientId: id }).success).toBe(true);
      }
    } finally {
      Object.defineProperty(globalThis, "isSecureContext", { value: original, configurable: true });
    }
  });
});
