import { createHash, createSign, createVerify, generateKeyPair } from "node:crypto";

/**
 * HTTP Signatures as the fediverse uses them (draft-cavage-http-signatures-12, rsa-sha256, the form
 * Mastodon signs and checks): the signed headers are `(request-target) host date` and, with a body,
 * `digest`. node:crypto does the RSA work; nothing here keeps state.
 */

/** A signed request older or newer than this is refused (Mastodon's window). */
export const SIGNATURE_WINDOW_MS = 12 * 60 * 60_000;

export interface KeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

export function makeKeyPair(): Promise<KeyPair> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      "rsa",
      { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } },
      (error, publicKeyPem, privateKeyPem) => (error ? reject(error) : resolve({ publicKeyPem, privateKeyPem })),
    ),
  );
}

export function digestOf(body: string | Uint8Array): string {
  return `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
}

function signingString(names: readonly string[], method: string, target: string, header: (name: string) => string | null): string {
  return names
    .map((name) => (name === "(request-target)" ? `(request-target): ${method.toLowerCase()} ${target}` : `${name}: ${header(name) ?? ""}`))
    .join("\n");
}

/**
 * The headers that sign one request: Date, Digest (with a body) and Signature. Host is signed as the
 * URL's host, which is what the client sends.
 */
export function signRequest(input: {
  method: "GET" | "POST";
  url: string;
  body?: string;
  keyId: string;
  privateKeyPem: string;
  date?: Date;
}): Record<string, string> {
  const url = new URL(input.url);
  const values: Record<string, string> = { host: url.host, date: (input.date ?? new Date()).toUTCString() };
  if (input.body !== undefined) values.digest = digestOf(input.body);
  const names = ["(request-target)", ...Object.keys(values)];
  const text = signingString(names, input.method, `${url.pathname}${url.search}`, (name) => values[name] ?? null);
  const signature = createSign("sha256").update(text).sign(input.privateKeyPem, "base64");
  const { host: _host, ...headers } = values;
  return {
    ...headers,
    signature: `keyId="${input.keyId}",algorithm="rsa-sha256",headers="${names.join(" ")}",signature="${signature}"`,
  };
}

export interface ParsedSignature {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

/** The Signature header's fields (or an `Authorization: Signature …` header's); null when it is not one. */
export function parseSignature(value: string | null): ParsedSignature | null {
  if (!value) return null;
  const text = value.replace(/^Signature\s+/i, "");
  const fields = new Map<string, string>();
  for (const match of text.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) fields.set(match[1]!.toLowerCase(), match[2]!);
  const keyId = fields.get("keyid");
  const signature = fields.get("signature");
  if (!keyId || !signature) return null;
  return {
    keyId,
    algorithm: (fields.get("algorithm") ?? "hs2019").toLowerCase(),
    headers: (fields.get("headers") ?? "date").toLowerCase().split(/\s+/).filter(Boolean),
    signature,
  };
}

/**
 * Why a signed request must be refused, or null when its signature holds: the signature must cover
 * the request target, the host, the date (within the window) and, for a body, a digest that matches it.
 */
export function checkSignature(input: {
  signature: ParsedSignature;
  method: string;
  /** Path and query the request was made to. */
  target: string;
  header: (name: string) => string | null;
  body: Uint8Array | null;
  publicKeyPem: string;
  now?: Date;
}): string | null {
  const { signature, header, body } = input;
  if (!["rsa-sha256", "hs2019"].includes(signature.algorithm)) return `unsupported signature algorithm ${signature.algorithm}`;
  const needed = ["(request-target)", "host", "date", ...(body ? ["digest"] : [])];
  const missing = needed.filter((name) => !signature.headers.includes(name));
  if (missing.length > 0) return `the signature does not cover ${missing.join(", ")}`;
  const date = Date.parse(header("date") ?? "");
  if (!Number.isFinite(date) || Math.abs((input.now ?? new Date()).getTime() - date) > SIGNATURE_WINDOW_MS)
    return "the signed Date is missing or too far from now";
  if (body && header("digest") !== digestOf(body)) {
    // Digest may list several algorithms; SHA-256 is the one we check.
    const sha = (header("digest") ?? "").split(",").find((part) => /^sha-256=/i.test(part.trim()));
    if (!sha || sha.trim().slice(8) !== digestOf(body).slice(8)) return "the Digest does not match the body";
  }
  const text = signingString(signature.headers, input.method, input.target, header);
  let valid = false;
  try {
    valid = createVerify("sha256").update(text).verify(input.publicKeyPem, signature.signature, "base64");
  } catch {
    valid = false;
  }
  return valid ? null : "the signature does not match";
}
