import { describe, expect, it } from "vitest";
import { checkSignature, digestOf, makeKeyPair, parseSignature, signRequest } from "./http-signature.server";

const keys = await makeKeyPair();
const url = "https://blog.example/ap/inbox?x=1";
const body = JSON.stringify({ id: "https://remote.example/1", type: "Follow" });

function verify(headers: Record<string, string>, overrides: { body?: string; target?: string; publicKeyPem?: string; now?: Date } = {}) {
  const all: Record<string, string> = { host: "blog.example", ...headers };
  return checkSignature({
    signature: parseSignature(all.signature ?? null)!,
    method: "POST",
    target: overrides.target ?? "/ap/inbox?x=1",
    header: (name) => all[name] ?? null,
    body: new TextEncoder().encode(overrides.body ?? body),
    publicKeyPem: overrides.publicKeyPem ?? keys.publicKeyPem,
    now: overrides.now,
  });
}

describe("HTTP signatures (draft-cavage, as Mastodon signs)", () => {
  const headers = signRequest({
    method: "POST",
    url,
    body,
    keyId: "https://blog.example/ap/actor#main-key",
    privateKeyPem: keys.privateKeyPem,
  });

  it("signs the request target, host, date and digest, and the signature checks", () => {
    expect(parseSignature(headers.signature ?? null)).toMatchObject({
      keyId: "https://blog.example/ap/actor#main-key",
      algorithm: "rsa-sha256",
      headers: ["(request-target)", "host", "date", "digest"],
    });
    expect(headers.digest).toBe(digestOf(body));
    expect(verify(headers)).toBeNull();
  });

  it("refuses another body, another address, another key and an old date", async () => {
    expect(verify(headers, { body: `${body} ` })).toMatch(/Digest does not match/);
    expect(verify(headers, { target: "/ap/inbox" })).toMatch(/signature does not match/);
    expect(verify(headers, { publicKeyPem: (await makeKeyPair()).publicKeyPem })).toMatch(/signature does not match/);
    expect(verify(headers, { now: new Date(Date.now() + 13 * 3600_000) })).toMatch(/Date/);
  });

  it("refuses a signature that leaves the digest or the target out", () => {
    const partial = headers.signature!.replace('headers="(request-target) host date digest"', 'headers="host date"');
    expect(verify({ ...headers, signature: partial })).toMatch(/does not cover \(request-target\), digest/);
    expect(parseSignature("nonsense")).toBeNull();
    expect(parseSignature(null)).toBeNull();
  });
});
