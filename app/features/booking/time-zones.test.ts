import { describe, expect, it } from "vitest";
import { timeZoneChoices } from "./time-zones";

describe("timeZoneChoices", () => {
  it("lists the common zones with the shown one and the site's, sorted; every zone when asked", () => {
    const common = timeZoneChoices("Pacific/Chatham", "Europe/Vienna");
    expect(common).toEqual([...common].sort());
    expect(common).toEqual(expect.arrayContaining(["Pacific/Chatham", "Europe/Vienna", "UTC", "America/Los_Angeles", "Australia/Sydney"]));
    expect(new Set(common).size).toBe(common.length);
    expect(common.length).toBeLessThan(60);
    const all = timeZoneChoices("Pacific/Chatham", "Europe/Vienna", true);
    expect(all.length).toBeGreaterThan(300);
    expect(all).toEqual(expect.arrayContaining(common));
  });

  it("offers only zones this runtime can show times in", () => {
    for (const zone of timeZoneChoices("UTC", "UTC")) expect(() => new Intl.DateTimeFormat("en-US", { timeZone: zone })).not.toThrow();
  });
});
