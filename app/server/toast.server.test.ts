import { describe, expect, it, vi } from "vitest";
import { clearToastCookie, readToast, redirectWithToast } from "./toast.server";

// The secret normally comes from AUTH_SECRET or the database; no database is needed here.
vi.mock("./db/client.server", () => ({ getDb: () => ({}) }));
vi.mock("./secret.server", () => ({ getAppSecret: async () => "toast-test-secret-0123456789" }));

const requestWith = (cookie: string) => new Request("http://localhost/", { headers: { cookie } });
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith("toast="))
    ?.split(";")[0] ?? "";

describe("toast cookie", () => {
  it("carries a toast across a redirect, signed, for a minute", async () => {
    const response = await redirectWithToast("/admin", { title: "Welcome back!", type: "success" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin");
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("toast=")) ?? "";
    expect(setCookie).toMatch(/Max-Age=60/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(await readToast(requestWith(cookieOf(response)))).toEqual({ title: "Welcome back!", type: "success" });
  });

  it("ignores a toast that is unsigned, tampered with or malformed", async () => {
    const forged = Buffer.from(JSON.stringify({ title: "Your account is locked", type: "error" })).toString("base64");
    expect(await readToast(requestWith(`toast=${forged}`))).toBeNull();
    const genuine = cookieOf(await redirectWithToast("/", { title: "Saved", type: "success" }));
    const [value, signature] = genuine.slice("toast=".length).split(".");
    const other = Buffer.from(JSON.stringify({ title: "Hacked", type: "error" })).toString("base64");
    expect(await readToast(requestWith(`toast=${other}.${signature ?? ""}`))).toBeNull();
    expect(value).toBeTruthy();
    expect(await readToast(requestWith("toast=%ZZ"))).toBeNull();
    expect(await readToast(new Request("http://localhost/"))).toBeNull();
  });

  it("clears the cookie", async () => {
    expect(await clearToastCookie()).toMatch(/^toast=.*Max-Age=0/);
  });
});
