import { describe, expect, it } from "vitest";
import { isCaldavAddressAllowed } from "./caldav.server";

describe("isCaldavAddressAllowed", () => {
  it("sends a password over https, or over http only to this machine or a private network", () => {
    const allowed = (url: string) => isCaldavAddressAllowed(new URL(url));
    expect(allowed("https://caldav.example.com/dav/calendars/me/work/")).toBe(true);
    expect(allowed("http://caldav.example.com/dav/")).toBe(false);
    expect(allowed("http://203.0.113.9/dav/")).toBe(false);
    expect(allowed("http://localhost:5232/me/work/")).toBe(true);
    expect(allowed("http://127.0.0.1:5232/me/work/")).toBe(true);
    expect(allowed("http://192.168.1.20/radicale/me/work/")).toBe(true);
    expect(allowed("http://[::1]:5232/me/work/")).toBe(true);
    expect(allowed("ftp://caldav.example.com/")).toBe(false);
  });
});
