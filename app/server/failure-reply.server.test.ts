import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseSubmission } from "~/lib/forms";
import { ValidationError } from "./errors.server";
import { failureReply, invalidSubmission } from "./failure-reply.server";

const schema = z.object({ email: z.email(), currentPassword: z.string().min(1), newPassword: z.string().min(12) });

function submission(entries: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.set(name, value);
  return parseSubmission(form, schema);
}

describe("form replies", () => {
  it("send the typed values back, but never a password or code", async () => {
    const refused = submission({ email: "jo@example.com", currentPassword: "old-secret-1", newPassword: "short" });
    const body = JSON.stringify(await invalidSubmission(refused).data);
    expect(body).toContain("jo@example.com");
    expect(body).not.toContain("old-secret-1");
    expect(body).not.toContain('"short"');

    const accepted = submission({ email: "jo@example.com", currentPassword: "old-secret-1", newPassword: "long-enough-secret" });
    const { status, result } = failureReply(new ValidationError("Current password is incorrect"), accepted);
    expect(status).toBe(400);
    expect(JSON.stringify(result)).not.toMatch(/old-secret-1|long-enough-secret/);
    expect(result?.error).toMatchObject({ "": ["Current password is incorrect"] });
  });
});
