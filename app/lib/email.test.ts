import { describe, expect, it } from "vitest";
import { accountEmailSchema, emailSchema, mailboxOf } from "./email";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message);

describe("email rules", () => {
  it("trims and keeps the letter case of a typed address", () => {
    expect(emailSchema.parse("  Ada@Example.com ")).toBe("Ada@Example.com");
  });

  it("gives SPEC §5's messages", () => {
    expect(messages(emailSchema.safeParse("nope"))).toEqual(["Invalid email address"]);
    expect(messages(emailSchema.safeParse(""))).toEqual(["Invalid email address"]);
    expect(messages(emailSchema.safeParse(`${"a".repeat(250)}@example.com`))).toEqual(["Email must be less than 255 characters"]);
  });

  it("lower-cases account emails and names a missing one", () => {
    expect(accountEmailSchema.parse(" Owner@Example.COM ")).toBe("owner@example.com");
    expect(messages(accountEmailSchema.safeParse("  "))).toEqual(["Email is required"]);
    expect(messages(accountEmailSchema.safeParse(undefined))).toEqual(["Email is required"]);
    expect(messages(accountEmailSchema.safeParse("x@"))).toEqual(["Invalid email address"]);
  });
});

describe("mailboxOf", () => {
  it("drops a +tag and the case, so tagged addresses count as one mailbox", () => {
    expect(mailboxOf("Victim+1@Example.COM")).toBe("victim@example.com");
    expect(mailboxOf("victim+a+b@example.com")).toBe("victim@example.com");
    expect(mailboxOf("plain@example.com")).toBe("plain@example.com");
  });
});
