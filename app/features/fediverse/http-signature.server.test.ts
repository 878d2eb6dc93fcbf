import { describe, expect, it } from "vitest";
import {
  checkRfc9421,
  checkSignature,
  contentDigestOf,
  digestOf,
  makeKeyPair,
  parseRfc9421,
  parseSignature,
  signRequest,
  signRequestRfc9421,
} from "./http-signature.server";

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

describe("HTTP message signatures (RFC 9421, rsa-v1_5-sha256)", () => {
  const target = "https://blog.example/ap/inbox";
  const sign = (options: { date?: Date; body?: string } = {}) =>
    signRequestRfc9421({
      method: "POST",
      url: target,
      body: options.body ?? body,
      keyId: "https://remote.example/users/alice#main-key",
      privateKeyPem: keys.privateKeyPem,
      date: options.date,
    });
  const check = (headers: Record<string, string>, overrides: { body?: string; targetUri?: string; publicKeyPem?: string } = {}) => {
    const parsed = parseRfc9421((name) => headers[name] ?? null);
    if (typeof parsed === "string" || parsed === null) return parsed ?? "unsigned";
    return checkRfc9421({
      signature: parsed,
      method: "POST",
      targetUri: overrides.targetUri ?? target,
      header: (name) => headers[name] ?? null,
      body: new TextEncoder().encode(overrides.body ?? body),
      publicKeyPem: overrides.publicKeyPem ?? keys.publicKeyPem,
    });
  };

  it("covers the method, target, authority and Content-Digest, with created, keyid and alg, and checks", async () => {
    const headers = await sign();
    expect(headers["signature-input"]).toMatch(
      /^sig1=\("@method" "@target-uri" "@authority" "content-digest"\);created=\d+;keyid="https:\/\/remote\.example\/users\/alice#main-key";alg="rsa-v1_5-sha256"$/,
    );
    expect(headers["content-digest"]).toBe(contentDigestOf(body));
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]+=*:$/);
    expect(check(headers)).toBeNull();
  });

  it("refuses another key, another body, another address, an old signature and a malformed one", async () => {
    const headers = await sign();
    expect(check(headers, { publicKeyPem: (await makeKeyPair()).publicKeyPem })).toMatch(/signature does not match/);
    expect(check(headers, { body: `${body} ` })).toMatch(/Content-Digest does not match/);
    // The digest is right for a changed body, but the signature covered the old digest.
    expect(check({ ...headers, "content-digest": contentDigestOf(`${body} `) }, { body: `${body} ` })).toMatch(/signature does not match/);
    expect(check(headers, { targetUri: "https://other.example/ap/inbox" })).toMatch(/signature does not match/);
    expect(check(await sign({ date: new Date(Date.now() - 13 * 3600_000) }))).toMatch(/created time/);
    expect(check({ ...headers, signature: "sig2=:AAAA:" })).toMatch(/no signature labelled sig1/);
    expect(check({ ...headers, "signature-input": "not a (dictionary" })).toMatch(/not a structured field/);
  });

  it("refuses a signature that leaves the Content-Digest or the target out", async () => {
    const headers = await sign();
    const input = headers["signature-input"]!;
    expect(check({ ...headers, "signature-input": input.replace(' "content-digest"', "") })).toMatch(/does not cover content-digest/);
    expect(check({ ...headers, "signature-input": input.replace(' "@target-uri"', "") })).toMatch(/does not cover @path/);
  });
});
