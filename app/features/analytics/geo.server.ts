import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { isIP } from "node:net";
import { logger } from "~/server/logger.server";

/**
 * Country of an address from an offline table: @ip-location-db/geo-whois-asn-country (CC0; built
 * from the regional registries' delegation data, © NRO, CC BY 4.0 — docs/decisions/0048-analytics-country-and-ua.md).
 * Loaded once, off the request path (the first flush), into sorted typed arrays: ~330,000 IPv4 and
 * ~216,000 IPv6 ranges, ~6 MB. IPv6 ranges are compared on their first 64 bits (registries delegate
 * nothing smaller than a /48).
 */
interface Table {
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Country: string[];
  v6Start: BigUint64Array;
  v6End: BigUint64Array;
  v6Country: string[];
}

let loading: Promise<Table | null> | undefined;
let table: Table | null = null;

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("@ip-location-db/geo-whois-asn-country/package.json"));
}

/** Runs `each` for 0…count-1 in slices, yielding to the event loop between them (requests go on while the table loads). */
async function inSlices(count: number, each: (i: number) => void): Promise<void> {
  const SLICE = 10_000;
  for (let from = 0; from < count; from += SLICE) {
    for (let i = from; i < Math.min(count, from + SLICE); i++) each(i);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function load(): Promise<Table | null> {
  try {
    const dir = packageDir();
    const [v4Text, v6Text] = await Promise.all([
      readFile(path.join(dir, "geo-whois-asn-country-ipv4-num.csv"), "utf8"),
      readFile(path.join(dir, "geo-whois-asn-country-ipv6-num.csv"), "utf8"),
    ]);
    const v4Lines = v4Text.split("\n").filter(Boolean);
    const v4Start = new Uint32Array(v4Lines.length);
    const v4End = new Uint32Array(v4Lines.length);
    const v4Country: string[] = new Array<string>(v4Lines.length);
    await inSlices(v4Lines.length, (i) => {
      const [start = "0", end = "0", country = ""] = (v4Lines[i] ?? "").split(",");
      v4Start[i] = Number(start);
      v4End[i] = Number(end);
      v4Country[i] = country.trim();
    });
    const v6Lines = v6Text.split("\n").filter(Boolean);
    const v6Start = new BigUint64Array(v6Lines.length);
    const v6End = new BigUint64Array(v6Lines.length);
    const v6Country: string[] = new Array<string>(v6Lines.length);
    await inSlices(v6Lines.length, (i) => {
      const [start = "0", end = "0", country = ""] = (v6Lines[i] ?? "").split(",");
      v6Start[i] = BigInt(start) >> 64n;
      v6End[i] = BigInt(end) >> 64n;
      v6Country[i] = country.trim();
    });
    return { v4Start, v4End, v4Country, v6Start, v6End, v6Country };
  } catch (error) {
    logger.warn({ err: error }, "statistics: the country table could not be loaded; countries are not recorded");
    return null;
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

/** ISO 3166 alpha-2 code of the address's country, or null (unknown, private, or the table not loaded). */
export function countryOf(address: string): string | null {
  if (!table) return null;
  const bare = address.replace(/^::ffff:/i, "");
  const kind = isIP(bare);
  if (kind === 4) {
    const n = bare.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
    const at = search(table.v4Start, table.v4End, n);
    return at === -1 ? null : (table.v4Country[at] ?? null);
  }
  if (kind === 6) {
    const high = v6High(bare.toLowerCase());
    if (high === null) return null;
    const at = search(table.v6Start, table.v6End, high);
    return at === -1 ? null : (table.v6Country[at] ?? null);
  }
  return null;
}
