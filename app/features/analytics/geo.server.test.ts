import { beforeAll, describe, expect, it } from "vitest";
import { countryOf, loadCountryTable } from "./geo.server";

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
