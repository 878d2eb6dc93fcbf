import { beforeAll, describe, expect, it } from "vitest";
import { countryOf, countryOfAddress, loadCountryTable } from "./geo.server";

// Runs first, before any test loads the table.
describe("countryOfAddress", () => {
  it("answers a loopback or private address without loading the table, and loads it for a public one", async () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "192.168.1.1", "::ffff:172.16.0.1", "fd00::1"]) {
      expect(await countryOfAddress(address)).toBeNull();
    }
    expect(countryOf("8.8.8.8")).toBeNull();
    expect(await countryOfAddress("8.8.8.8")).toBe("US");
  }, 60_000);
});

describe("countryOf", () => {
  beforeAll(async () => {
    await loadCountryTable();
  }, 60_000);

  it("finds the country of public IPv4 and IPv6 addresses", () => {
    // Ranges as the table ships them: 1.0.16.0/20 and 2001:2::/48 in Japan, 8.8.8.8 in the United States.
    expect(countryOf("1.0.16.1")).toBe("JP");
    expect(countryOf("::ffff:8.8.8.8")).toBe("US");
    expect(countryOf("2001:2::1")).toBe("JP");
  });

  it("knows nothing of private and malformed addresses", () => {
    expect(countryOf("10.1.2.3")).toBeNull();
    expect(countryOf("::1")).toBeNull();
    expect(countryOf("unknown")).toBeNull();
  });
});
