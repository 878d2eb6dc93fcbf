import { createHash, createSign, createVerify, generateKeyPair } from "node:crypto";
import { createSigner, httpbis } from "http-message-signatures";
import { isInnerList, parseDictionary, serializeItem, serializeList, type InnerList } from "structured-headers";

/**
 * HTTP signatures as the fediverse uses them, in both forms (docs/decisions/0086-rfc9421-signatures.md):
 * - draft-cavage-http-signatures-12 (`rsa-sha256`, the form Mastodon signs and checks): the signed
 *   headers are `(request-target) host date` and, with a body, `digest`;
 * - RFC 9421 HTTP Message Signatures (`rsa-v1_5-sha256`, with the same key): `Signature-Input` and
 *   `Signature` covering `@method`, `@target-uri`, `@authority` and, with a body, its RFC 9530
 *   `Content-Digest`, with `created` and `keyid`.
 * `http-message-signatures` builds the RFC 9421 signature base and headers, `structured-headers`
 * parses them, node:crypto does the RSA work; nothing here keeps state.
 */

/** Which form signs a request: RFC 9421, or draft-cavage for instances that take only that one. */
export type SignatureStyle = "rfc9421" | "cavage";

/** A signed request older or newer than this is refused (Mastodon's window), in either form. */
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

/** One request to sign, in either form: a GET, or a POST with its body. */
export interface RequestToSign {
  method: "GET" | "POST";
  url: string;
  body?: string;
  keyId: string;
  privateKeyPem: string;
  date?: Date;
}

/**
 * The headers that sign one request: Date, Digest (with a body) and Signature. Host is signed as the
 * URL's host, which is what the client sends.
 */
export function signRequest(input: RequestToSign): Record<string, string> {
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

/** The RFC 9530 `Content-Digest` of a body (SHA-256). */
export function contentDigestOf(body: string | Uint8Array): string {
  return `sha-256=:${createHash("sha256").update(body).digest("base64")}:`;
}

/** The components our RFC 9421 signatures cover; `content-digest` is added when there is a body. */
const RFC9421_COMPONENTS = ["@method", "@target-uri", "@authority"] as const;
const RFC9421_ALGORITHM = "rsa-v1_5-sha256";

/**
 * The headers that sign one request with RFC 9421: Date, Content-Digest (with a body),
 * Signature-Input and Signature (label `sig1`).
 */
export async function signRequestRfc9421(input: RequestToSign): Promise<Record<string, string>> {
  const date = input.date ?? new Date();
  const headers: Record<string, string> = { date: date.toUTCString() };
  if (input.body !== undefined) headers["content-digest"] = contentDigestOf(input.body);
  const signed = await httpbis.signMessage(
    {
      key: createSigner(input.privateKeyPem, RFC9421_ALGORITHM, input.keyId),
      name: "sig1",
      fields: [...RFC9421_COMPONENTS, ...(input.body !== undefined ? ["content-digest"] : [])],
      params: ["created", "keyid", "alg"],
      paramValues: { created: date },
    },
    { method: input.method, url: input.url, headers },
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) out[name.toLowerCase()] = [value].flat().join(", ");
  return out;
}

/** The headers that sign one request in the given form. */
export async function signRequestAs(style: SignatureStyle, input: RequestToSign): Promise<Record<string, string>> {
  return style === "rfc9421" ? signRequestRfc9421(input) : signRequest(input);
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
  return mismatch(text, input.publicKeyPem, Buffer.from(signature.signature, "base64"));
}

/** Null when `signature` is the key's RSA-SHA256 signature of `text` (both forms sign this way), else why not. */
function mismatch(text: string, publicKeyPem: string, signature: Buffer): string | null {
  let valid = false;
  try {
    valid = createVerify("sha256").update(text).verify(publicKeyPem, signature);
  } catch {
    valid = false;
  }
  return valid ? null : "the signature does not match";
}

/** One RFC 9421 signature of a request: its covered components and parameters, and the signature bytes. */
export interface ParsedRfc9421 {
  label: string;
  input: InnerList;
  keyId: string;
  signature: Buffer;
}

/**
 * The first signature of a request's `Signature-Input` and `Signature` headers (RFC 9421), a
 * sentence saying why they cannot be read, or null when the request has no `Signature-Input`.
 */
export function parseRfc9421(header: (name: string) => string | null): ParsedRfc9421 | string | null {
  const inputs = header("signature-input");
  if (!inputs) return null;
  let inputMap, signatureMap;
  try {
    inputMap = parseDictionary(inputs);
    signatureMap = parseDictionary(header("signature") ?? "");
  } catch {
    return "the Signature-Input or Signature header is not a structured field (RFC 9421)";
  }
  const first = [...inputMap.entries()][0];
  if (!first || !isInnerList(first[1])) return "the Signature-Input header names no list of signed components";
  const [label, input] = first as [string, InnerList];
  const keyId = input[1].get("keyid");
  if (typeof keyId !== "string" || !keyId) return "the signature has no keyid";
  const signature = signatureMap.get(label);
  if (!signature || isInnerList(signature) || !(signature[0] instanceof ArrayBuffer))
    return `the Signature header has no signature labelled ${label}`;
  return { label, input, keyId, signature: Buffer.from(signature[0]) };
}

/** Whether a `Content-Digest` header (RFC 9530) holds the body's SHA-256 or SHA-512, and no wrong one. */
function contentDigestMatches(value: string | null, body: Uint8Array): boolean {
  let digests;
  try {
    digests = parseDictionary(value ?? "");
  } catch {
    return false;
  }
  let checked = 0;
  for (const algorithm of ["sha-256", "sha-512"] as const) {
    const item = digests.get(algorithm);
    if (!item) continue;
    if (isInnerList(item) || !(item[0] instanceof ArrayBuffer)) return false;
    const expected = createHash(algorithm.replace("-", "")).update(body).digest();
    if (!expected.equals(Buffer.from(item[0]))) return false;
    checked++;
  }
  return checked > 0;
}

/**
 * Why an RFC 9421-signed request must be refused, or null when its signature holds: it must cover
 * `@method`, the target (`@target-uri`, or `@authority` with `@path`), for a body a `Content-Digest`
 * that matches it, and have been `created` within the window (and not be past its `expires`).
 */
export function checkRfc9421(input: {
  signature: ParsedRfc9421;
  method: string;
  /** The whole address the request was made to (as the sender was told it: our inbox). */
  targetUri: string;
  header: (name: string) => string | null;
  body: Uint8Array | null;
  publicKeyPem: string;
  now?: Date;
}): string | null {
  const [items, params] = input.signature.input;
  const alg = params.get("alg");
  if (alg !== undefined && alg !== RFC9421_ALGORITHM) return `unsupported signature algorithm ${String(alg)}`;
  const covered = items.map(([name]) => String(name).toLowerCase());
  const url = new URL(input.targetUri);
  const needed = [
    "@method",
    ...(covered.includes("@target-uri") ? [] : ["@authority", "@path", ...(url.search ? ["@query"] : [])]),
    ...(input.body ? ["content-digest"] : []),
  ];
  const missing = needed.filter((name) => !covered.includes(name));
  if (missing.length > 0) return `the signature does not cover ${missing.join(", ")}`;
  const now = (input.now ?? new Date()).getTime() / 1000;
  const created = params.get("created");
  if (typeof created !== "number" || Math.abs(now - created) * 1000 > SIGNATURE_WINDOW_MS)
    return "the signature's created time is missing or too far from now";
  const expires = params.get("expires");
  if (expires !== undefined && (typeof expires !== "number" || now > expires)) return "the signature has expired";
  if (input.body && !contentDigestMatches(input.header("content-digest"), input.body)) return "the Content-Digest does not match the body";
  // The covered header fields, as the request carries them (the library reads them from a record).
  const headers: Record<string, string> = {};
  for (const name of covered) {
    const value = name.startsWith("@") ? null : input.header(name);
    if (value !== null) headers[name] = value;
  }
  const absent = covered.find((name) => !name.startsWith("@") && !(name in headers));
  if (absent) return `the signature covers ${absent}, which the request does not carry`;
  let base: string;
  try {
    const fields = items.map((item) => serializeItem(item));
    const lines = httpbis.createSignatureBase({ fields }, { method: input.method, url: input.targetUri, headers });
    lines.push(['"@signature-params"', [serializeList([input.signature.input])]]);
    base = httpbis.formatSignatureBase(lines);
  } catch (error) {
    return `the signature covers what this request does not have (${error instanceof Error ? error.message : "unknown component"})`;
  }
  return mismatch(base, input.publicKeyPem, input.signature.signature);
}
