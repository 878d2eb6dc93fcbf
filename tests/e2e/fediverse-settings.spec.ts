import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { makeKeyPair, signRequest, type KeyPair } from "~/features/fediverse/http-signature.server";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { withOwnServer } from "./helpers/own-server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/**
 * Settings → Fediverse on a server of its own (it fetches keys from, and delivers to, a remote instance
 * on 127.0.0.1, which the outbound guard allows only with OUTBOUND_ALLOW_PRIVATE). The remote instance
 * is a real local HTTP server with two accounts that sign their Follow; it records what it is sent.
 */
const received: { path: string; type: string; object: string }[] = [];
let remote: Server;
let remoteUrl = "";
const keys: Record<string, KeyPair> = {};
const actorOf = (name: string) => `${remoteUrl}/users/${name}`;

test.beforeAll(async () => {
  keys.alice = await makeKeyPair();
  keys.bob = await makeKeyPair();
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const account = /^\/users\/(alice|bob)$/.exec(req.url ?? "")?.[1];
      if (req.method === "GET" && account) {
        const id = actorOf(account);
        res.writeHead(200, { "content-type": "application/activity+json" }).end(
          JSON.stringify({
            id,
            type: "Person",
            preferredUsername: account,
            name: account,
            inbox: `${id}/inbox`,
            publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: keys[account]!.publicKeyPem },
          }),
        );
        return;
      }
      if (req.method === "POST" && /^\/users\/(alice|bob)\/inbox$/.test(req.url ?? "")) {
        const activity = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; object: { actor: string } };
        received.push({ path: req.url ?? "", type: activity.type, object: activity.object.actor });
        res.writeHead(202).end();
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

test.describe("Settings → Fediverse", () => {
  test.describe.configure({ timeout: 150_000 });
  const own = withOwnServer("e2e-fediverse-", () => ({ OUTBOUND_ALLOW_PRIVATE: "true" }));

  /** The site's actor address, as another instance reads it. */
  async function actorId(): Promise<string> {
    const response = await fetch(`${own.server.url}/ap/actor`, { headers: { accept: "application/activity+json" } });
    return ((await response.json()) as { id: string }).id;
  }

  /** A Follow of the site's actor, signed by one of the remote accounts, sent to the site's inbox. */
  async function follow(name: "alice" | "bob"): Promise<number> {
    const actor = await actorId();
    const body = JSON.stringify({ id: `${actorOf(name)}#follow-${Date.now()}`, type: "Follow", actor: actorOf(name), object: actor });
    const url = `${own.server.url}/ap/inbox`;
    const headers = signRequest({
      method: "POST",
      url,
      body,
      keyId: `${actorOf(name)}#main-key`,
      privateKeyPem: keys[name]!.privateKeyPem,
    });
    const response = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/activity+json" }, body });
    return response.status;
  }

  const card = (page: Page) =>
    page.locator('[data-slot="card"]').filter({ has: page.getByRole("heading", { level: 2, name: "Fediverse" }) });

  test("changes the handle, lists followers seeded by signed Follows, removes one and blocks another", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: own.server.url });
    const page = await context.newPage();
    await loginAs(page, E2E_ADMIN);
    // The site's own address (its configured one, which the actor's id starts with), not the one the test dials.
    const host = new URL(await actorId()).host;
    await page.goto("/admin/settings");
    const fediverse = card(page);
    await expect(fediverse.getByText(`@blog@${host}`)).toBeVisible();
    await expect(fediverse.getByText("0 followers")).toBeVisible();

    // A handle with a space is refused with the rule; a good one is saved and WebFinger answers it.
    const handle = fediverse.getByLabel("Handle");
    await handle.fill("no spaces");
    await fediverse.getByRole("button", { name: "Save fediverse settings" }).click();
    await expect(fediverse.getByText("Use 1 to 30 letters, digits or underscores for the handle.")).toBeVisible();
    await handle.fill("notes");
    await fediverse.getByRole("button", { name: "Save fediverse settings" }).click();
    await expect(toastWith(page, "Fediverse settings saved")).toBeVisible();
    await expect(fediverse.getByText(`@notes@${host}`)).toBeVisible();
    expect((await page.request.get(`/.well-known/webfinger?resource=acct:notes@${host}`)).status()).toBe(200);
    // The old handle still finds the actor, under its new name (a follower's app updates it).
    const old = await page.request.get(`/.well-known/webfinger?resource=acct:blog@${host}`);
    expect(((await old.json()) as { subject: string }).subject).toBe(`acct:notes@${host}`);

    // Two accounts of the remote instance follow with signed requests; each is accepted.
    expect(await follow("alice")).toBe(202);
    expect(await follow("bob")).toBe(202);
    await expect.poll(() => received.filter((r) => r.type === "Accept").length, { timeout: 30_000 }).toBe(2);
    await page.reload();
    const remoteHost = new URL(remoteUrl).host;
    await expect(fediverse.getByText("2 followers")).toBeVisible();
    const followers = fediverse.getByRole("list", { name: "Followers" });
    await expect(followers.getByRole("link", { name: `@alice@${remoteHost}` })).toBeVisible();
    await expect(followers.getByRole("link", { name: `@bob@${remoteHost}` })).toBeVisible();
    await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

    // Remove: Alice goes and her instance gets a Reject; she could follow again.
    await followers.getByRole("button", { name: `Remove @alice@${remoteHost}` }).click();
    await expect(toastWith(page, "Follower removed")).toBeVisible();
    await expect(followers.getByRole("link", { name: `@alice@${remoteHost}` })).toHaveCount(0);
    await expect(fediverse.getByText("1 follower", { exact: true })).toBeVisible();
    await expect.poll(() => received.some((r) => r.type === "Reject" && r.path === "/users/alice/inbox"), { timeout: 30_000 }).toBe(true);

    // Block: Bob goes, gets a Reject, and his next Follow is refused.
    await followers.getByRole("button", { name: `Block @bob@${remoteHost}` }).click();
    await expect(toastWith(page, "Follower blocked")).toBeVisible();
    await expect(fediverse.getByText("0 followers")).toBeVisible();
    await expect.poll(() => received.some((r) => r.type === "Reject" && r.path === "/users/bob/inbox"), { timeout: 30_000 }).toBe(true);
    expect(await follow("bob")).toBe(403);
    expect(await follow("alice")).toBe(202);
    await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

    // The block is an entry of the comments' block list, where it can be lifted.
    await page.goto("/admin/comments");
    await expect(page.getByRole("button", { name: `Remove actor ${actorOf("bob")}` })).toBeVisible();
    await context.close();
  });
});
