import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "./field-errors";

describe("fieldErrorsOf", () => {
  const schema = z.object({
    title: z.string().min(1, "Title is required").max(3, "Too long"),
    tags: z.array(z.string().min(2, "Tag too short")),
  });

  it("groups every message under its top-level field, in zod's order", () => {
    const result = schema.safeParse({ title: "", tags: ["ok", "x", "y"] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({ title: ["Title is required"], tags: ["Tag too short", "Tag too short"] });
  });

  it("leaves an issue about the whole input out of the fields", () => {
    const result = schema.safeParse(null);
    if (result.success) throw new Error("null parsed");
    expect(fieldErrorsOf(result.error)).toEqual({});
  });
});
