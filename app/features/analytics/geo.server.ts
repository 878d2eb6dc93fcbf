import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { isIP } from "node:net";
import { releaseNativeMemorySoon } from "~/server/gc.server";
import { logger } from "~/server/logger.server";
import { isNonPublicAddress } from "~/server/outbound-fetch.server";

/**
 * Country of an address from an offline table: @ip-location-db/geo-whois-asn-country (CC0; built
 * from the regional registries' delegation data, © NRO, CC BY 4.0 — docs/decisions/0048-analytics-country-and-ua.md).
 * Loaded once, off the request path (the first flush with a public address: loopback and private
 * addresses have no country), into sorted typed arrays: ~330,000 IPv4 and ~216,000 IPv6 ranges, ~7 MB.
 * IPv6 ranges are compared on their first 64 bits (registries delegate nothing smaller than a /48).
 * The files (25 MB) are parsed as bytes, not as text: split into lines and fields, the same table
 * left ~80 MB of garbage in the old generation that a quiet server kept resident
 * (docs/decisions/0079-idle-memory.md).
 */
interface Table {
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Country: Uint16Array;
  v6Start: BigUint64Array;
  v6End: BigUint64Array;
  v6Country: Uint16Array;
}

let loading: Promise<Table | null> | undefined;
let table: Table | null = null;

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("@ip-location-db/geo-whois-asn-country/package.json"));
}

const COMMA = 0x2c;
const NEWLINE = 0x0a;
const ZERO = 0x30;
/** Rows parsed between two yields to the event loop (requests go on while the table loads). */
const SLICE = 10_000;

/** The value of the decimal digits bytes[from, to) (IPv4: below 2^32, exact in a double). */
function decimal(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + (bytes[i]! - ZERO);
  return value;
}

/** 128-bit arithmetic in four 32-bit limbs, most significant first (IPv6 addresses as decimals). */
const limbs = new Float64Array(4);
const LIMB = 2 ** 32;
const nativeLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes the high 64 bits of the decimal digits bytes[from, to) into `into`'s element `at`. */
function high64(bytes: Uint8Array, from: number, to: number, into: DataView, at: number): void {
  limbs.fill(0);
  for (let i = from; i < to; i++) {
    let carry = bytes[i]! - ZERO;
    for (let k = 3; k >= 0; k--) {
      const value = limbs[k]! * 10 + carry;
      carry = Math.floor(value / LIMB);
      limbs[k] = value - carry * LIMB;
    }
  }
  into.setUint32(at * 8 + (nativeLittleEndian ? 4 : 0), limbs[0]!, nativeLittleEndian);
  into.setUint32(at * 8 + (nativeLittleEndian ? 0 : 4), limbs[1]!, nativeLittleEndian);
}

/** A two-letter code as one number (first letter in the high byte); 0 for none. */
function packedCode(bytes: Uint8Array, from: number, to: number): number {
  return to - from >= 2 ? (bytes[from]! << 8) | bytes[from + 1]! : 0;
}

/**
 * Calls `row` for each "start,end,CC" line of `bytes` with the byte offsets of its three fields;
 * returns the number of rows.
 */
async function forEachRow(
  bytes: Uint8Array,
  row: (index: number, start: number, comma1: number, comma2: number, end: number) => void,
): Promise<number> {
  let index = 0;
  let from = 0;
  for (let line = 1; from < bytes.length; line++) {
    let end = bytes.indexOf(NEWLINE, from);
    if (end === -1) end = bytes.length;
    const comma1 = bytes.indexOf(COMMA, from);
    const comma2 = comma1 === -1 ? -1 : bytes.indexOf(COMMA, comma1 + 1);
    if (comma1 !== -1 && comma2 !== -1 && comma2 < end) row(index++, from, comma1, comma2, end);
    from = end + 1;
    if (line % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return index;
}

/** Upper bound of the rows in `bytes` (one per line). */
function lineCount(bytes: Uint8Array): number {
  let count = 1;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

async function load(): Promise<Table | null> {
  try {
    const dir = packageDir();
    let v4Bytes: Uint8Array | undefined = await readFile(path.join(dir, "geo-whois-asn-country-ipv4-num.csv"));
    const v4Size = lineCount(v4Bytes);
    const v4Start = new Uint32Array(v4Size);
    const v4End = new Uint32Array(v4Size);
    const v4Country = new Uint16Array(v4Size);
    const v4Rows = await forEachRow(v4Bytes, (i, start, comma1, comma2, end) => {
      v4Start[i] = decimal(v4Bytes!, start, comma1);
      v4End[i] = decimal(v4Bytes!, comma1 + 1, comma2);
      v4Country[i] = packedCode(v4Bytes!, comma2 + 1, end);
    });
    v4Bytes = undefined;
    let v6Bytes: Uint8Array | undefined = await readFile(path.join(dir, "geo-whois-asn-country-ipv6-num.csv"));
    const v6Size = lineCount(v6Bytes);
    const v6Start = new BigUint64Array(v6Size);
    const v6End = new BigUint64Array(v6Size);
    const v6Country = new Uint16Array(v6Size);
    const starts = new DataView(v6Start.buffer);
    const ends = new DataView(v6End.buffer);
    const v6Rows = await forEachRow(v6Bytes, (i, start, comma1, comma2, end) => {
      high64(v6Bytes!, start, comma1, starts, i);
      high64(v6Bytes!, comma1 + 1, comma2, ends, i);
      v6Country[i] = packedCode(v6Bytes!, comma2 + 1, end);
    });
    v6Bytes = undefined;
    return {
      v4Start: v4Start.subarray(0, v4Rows),
      v4End: v4End.subarray(0, v4Rows),
      v4Country: v4Country.subarray(0, v4Rows),
      v6Start: v6Start.subarray(0, v6Rows),
      v6End: v6End.subarray(0, v6Rows),
      v6Country: v6Country.subarray(0, v6Rows),
    };
  } catch (error) {
    logger.warn({ err: error }, "statistics: the country table could not be loaded; countries are not recorded");
    return null;
  } finally {
    // The file buffers (25 MB, outside the V8 heap) go back to the system now, not at some later collection.
    releaseNativeMemorySoon();
  }
}

/** Loads the table once (later calls wait for the same load). */
export async function loadCountryTable(): Promise<void> {
  loading ??= load().then((loaded) => (table = loaded));
  await loading;
}

function search<T extends number | bigint>(starts: ArrayLike<T>, ends: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if ((starts[mid] as T) > value) high = mid - 1;
    else if ((ends[mid] as T) < value) low = mid + 1;
    else return mid;
  }
  return -1;
}

function v6High(address: string): bigint | null {
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  if (right.some((g) => g.includes(".")) || left.some((g) => g.includes("."))) return null;
  const groups = tail === undefined ? left : [...left, ...new Array<string>(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8) return null;
  let value = 0n;
  for (const group of groups.slice(0, 4)) value = (value << 16n) | BigInt(parseInt(group || "0", 16));
  return value;
}

function codeText(packed: number | undefined): string | null {
  return packed ? String.fromCharCode(packed >> 8, packed & 0xff) : null;
}

/** ISO 3166 alpha-2 code of the address's country, or null (unknown, private, or the table not loaded). */
export function countryOf(address: string): string | null {
  if (!table) return null;
  const bare = address.replace(/^::ffff:/i, "");
  const kind = isIP(bare);
  if (kind === 4) {
    const n = bare.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
    const at = search(table.v4Start, table.v4End, n);
    return at === -1 ? null : codeText(table.v4Country[at]);
  }
  if (kind === 6) {
    const high = v6High(bare.toLowerCase());
    if (high === null) return null;
    const at = search(table.v6Start, table.v6End, high);
    return at === -1 ? null : codeText(table.v6Country[at]);
  }
  return null;
}

/**
 * The address's country, loading the table for the first public address: a loopback or private
 * address has none, so a site only ever visited through them (development, tests) never loads it.
 */
export async function countryOfAddress(address: string): Promise<string | null> {
  if (isNonPublicAddress(address)) return null;
  await loadCountryTable();
  return countryOf(address);
}
