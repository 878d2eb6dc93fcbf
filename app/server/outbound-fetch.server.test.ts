import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/env.server";
import { guardedLookup, isNonPublicAddress, outboundFetch } from "./outbound-fetch.server";

let server: http.Server;
let base = "";
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === "/redirect") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else if (req.url === "/big") res.writeHead(200).end("x".repeat(2048));
    else res.writeHead(200, { "content-type": "text/plain" }).end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  resetEnvForTests();
});

function allowPrivate(value: boolean) {
  process.env.OUTBOUND_ALLOW_PRIVATE = String(value);
  resetEnvForTests();
}

const options = { timeoutMs: 5_000, maxBytes: 1024, userAgent: "test" };

describe("isNonPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fd00::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "not an address",
  ])("refuses %s", (address) => expect(isNonPublicAddress(address)).toBe(true));

  it.each(["93.184.216.34", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) =>
    expect(isNonPublicAddress(address)).toBe(false),
  );
});

describe("outboundFetch", () => {
  it("refuses a loopback address by default, without connecting, with a message an administrator can act on", async () => {
    const before = hits;
    await expect(outboundFetch(`${base}/`, options)).rejects.toThrow(
      /address not allowed: 127\.0\.0\.1 is a local or private address \(127\.0\.0\.1\).*OUTBOUND_ALLOW_PRIVATE=true/,
    );
    await expect(outboundFetch("http://localhost:9/", options)).rejects.toThrow(/address not allowed: localhost/);
    await expect(outboundFetch("http://[::1]:9/", options)).rejects.toThrow(/address not allowed/);
    expect(hits).toBe(before);
  });

  it("checks the address a name resolves to in the connection's own lookup (no DNS-rebinding gap)", async () => {
    const error = await new Promise<Error | null>((resolve) => guardedLookup("localhost", { all: true }, (e) => resolve(e)));
    expect(error?.message).toMatch(/address not allowed: localhost is a local or private address/);
  });

  it("fetches a local server when OUTBOUND_ALLOW_PRIVATE=true, capping size", async () => {
    allowPrivate(true);
    const ok = await outboundFetch(`${base}/`, options);
    expect(new TextDecoder().decode(ok.bytes)).toBe("hello");
    expect(ok.contentType).toBe("text/plain");
    await expect(outboundFetch(`${base}/big`, options)).rejects.toThrow(/response larger than 1024 bytes/);
  });

  it("checks every redirect target against the caller's rule", async () => {
    allowPrivate(true);
    const onlyFirst = (url: URL) => url.hostname === "127.0.0.1";
    await expect(outboundFetch(`${base}/redirect`, { ...options, isAllowed: onlyFirst })).rejects.toThrow(
      /address not allowed: http:\/\/169\.254\.169\.254/,
    );
  });

  it("refuses schemes other than http(s)", async () => {
    await expect(outboundFetch("file:///etc/passwd", options)).rejects.toThrow(/address not allowed: /);
  });
});
