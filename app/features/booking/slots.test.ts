import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { availableSlots, blockedInterval, hoursOfDay, isOfferedSlot, type CallTypeRules, type SlotInput, type WeeklyRange } from "./slots";
import { addDays, instantOf, offsetAt, wallTimeOf } from "~/lib/time-zone";

const OWNER = "Europe/Berlin";
const ZONES = [OWNER, "America/Los_Angeles", "Australia/Sydney"] as const;
const HOUR = 3_600_000;
const MINUTE = 60_000;

// 2026's changes: Berlin springs forward on 29 March, falls back on 25 October; Los Angeles on
// 8 March and 1 November; Sydney falls back on 5 April and springs forward on 4 October.
const AROUND_CHANGES = ["2026-03-06", "2026-03-27", "2026-04-03", "2026-10-02", "2026-10-23", "2026-10-30"].map((day) =>
  Date.parse(`${day}T00:00:00Z`),
);

const rulesArb: fc.Arbitrary<CallTypeRules> = fc.record({
  durationMinutes: fc.constantFrom(15, 30, 45, 60, 90),
  incrementMinutes: fc.constantFrom(15, 30, 60),
  bufferBeforeMinutes: fc.constantFrom(0, 10, 15),
  bufferAfterMinutes: fc.constantFrom(0, 5, 30),
  minimumNoticeMinutes: fc.constantFrom(0, 60, 720, 1440),
  horizonDays: fc.integer({ min: 1, max: 10 }),
  dailyCap: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
});

const rangeArb = fc
  .tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 47 }), fc.integer({ min: 1, max: 48 }))
  .filter(([, a, b]) => a < b)
  .map(([weekday, a, b]): WeeklyRange => ({ weekday, startMinute: a * 30, endMinute: b * 30 }));

const inputArb: fc.Arbitrary<SlotInput> = fc
  .record({
    rules: rulesArb,
    weekly: fc.array(rangeArb, { minLength: 1, maxLength: 10 }),
    now: fc.constantFrom(...AROUND_CHANGES).chain((base) => fc.integer({ min: 0, max: 5 * 24 * 60 }).map((m) => base + m * MINUTE)),
    busyOffsets: fc.array(fc.tuple(fc.integer({ min: 0, max: 12 * 24 * 4 }), fc.integer({ min: 1, max: 16 })), { maxLength: 30 }),
    offDays: fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 2 }),
    extra: fc.option(fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 21, max: 48 }))),
    capped: fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 3 }),
  })
  .map(({ rules, weekly, now, busyOffsets, offDays, extra, capped }) => {
    const today = wallTimeOf(now, OWNER).day;
    return {
      timeZone: OWNER,
      rules,
      weekly,
      now,
      busy: busyOffsets.map(([quarter, length]) => ({ start: now + quarter * 15 * MINUTE, end: now + (quarter + length) * 15 * MINUTE })),
      overrides: [
        ...offDays.map((n) => ({ firstDay: addDays(today, n), lastDay: addDays(today, n), startMinute: null, endMinute: null })),
        ...(extra
          ? [
              {
                firstDay: addDays(today, extra[0]),
                lastDay: addDays(today, extra[0]),
                startMinute: extra[1] * 30,
                endMinute: extra[2] * 30,
              },
            ]
          : []),
      ],
      bookedPerDay: new Map(capped.map((n) => [addDays(today, n), rules.dailyCap ?? 0])),
    };
  });

/** The owner-local minute of an instant on `day` (-1 on another day). */
function minuteOnDay(instant: number, day: string): number {
  const wall = wallTimeOf(instant, OWNER);
  return wall.day === day ? wall.minute : -1;
}

describe("availableSlots", () => {
  it("offers only slots inside the day's hours, clear of busy times and buffers, after the notice, within the horizon and the cap", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const slots = availableSlots(input);
        const { rules, now } = input;
        for (const [i, slot] of slots.entries()) {
          if (i > 0) expect(slot.start).toBeGreaterThan(slots[i - 1]?.start ?? -Infinity);
          expect(slot.end - slot.start).toBe(rules.durationMinutes * MINUTE);
          expect(slot.start).toBeGreaterThanOrEqual(now + rules.minimumNoticeMinutes * MINUTE);
          expect(slot.start).toBeLessThan(now + rules.horizonDays * 24 * HOUR);
          expect(wallTimeOf(slot.start, OWNER).day).toBe(slot.day);
          const startMinute = minuteOnDay(slot.start, slot.day);
          // The start by the owner's clock; the end by the range's end instant (a range may end in a spring-forward gap).
          const ranges = hoursOfDay(slot.day, input.weekly, input.overrides);
          expect(
            ranges.some(
              (r) => r.startMinute <= startMinute && startMinute < r.endMinute && slot.end <= instantOf(slot.day, r.endMinute, OWNER),
            ),
          ).toBe(true);
          const blocked = blockedInterval(slot.start, rules);
          for (const busy of input.busy) expect(busy.end <= blocked.start || blocked.end <= busy.start).toBe(true);
          if (rules.dailyCap !== null) expect(input.bookedPerDay?.get(slot.day) ?? 0).toBeLessThan(rules.dailyCap);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("offers every time that keeps all the rules (each range's start, when free)", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const offered = new Set(availableSlots(input).map((slot) => slot.start));
        const { rules, now } = input;
        const today = wallTimeOf(now, OWNER).day;
        for (let n = 0; n <= rules.horizonDays; n++) {
          const day = addDays(today, n);
          if (rules.dailyCap !== null && (input.bookedPerDay?.get(day) ?? 0) >= rules.dailyCap) continue;
          for (const range of hoursOfDay(day, input.weekly, input.overrides)) {
            const start = instantOf(day, range.startMinute, OWNER);
            if (start + rules.durationMinutes * MINUTE > instantOf(day, range.endMinute, OWNER)) continue;
            if (start < now + rules.minimumNoticeMinutes * MINUTE || start >= now + rules.horizonDays * 24 * HOUR) continue;
            const blocked = blockedInterval(start, rules);
            if (input.busy.some((busy) => busy.start < blocked.end && blocked.start < busy.end)) continue;
            expect(offered.has(start)).toBe(true);
            expect(isOfferedSlot(input, start)).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  const allDay: CallTypeRules = {
    durationMinutes: 60,
    incrementMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minimumNoticeMinutes: 0,
    horizonDays: 3,
    dailyCap: null,
  };
  const everyHour = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 }));

  it("has a 23-hour day when Berlin springs forward and a 25-hour day when it falls back", () => {
    const base = { timeZone: OWNER, rules: allDay, weekly: everyHour, overrides: [], busy: [] };
    const spring = availableSlots({ ...base, now: Date.parse("2026-03-28T23:00:00Z") }).filter((s) => s.day === "2026-03-29");
    const autumn = availableSlots({ ...base, now: Date.parse("2026-10-24T22:00:00Z") }).filter((s) => s.day === "2026-10-25");
    // 23 h and 25 h of half-hour steps for one-hour calls.
    expect(spring).toHaveLength(45);
    expect(autumn).toHaveLength(49);
    expect(spring.some((s) => wallTimeOf(s.start, OWNER).minute === 150)).toBe(false);
    // 02:30 summer time and 02:30 winter time are both offered, an hour apart.
    const twoThirty = autumn.filter((s) => wallTimeOf(s.start, OWNER).minute === 150);
    expect(twoThirty.map((s) => new Date(s.start).toISOString())).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"]);
  });

  it("stores 09:00 Berlin as 08:00 UTC in winter and 07:00 UTC in summer, shown in Los Angeles and Sydney time", () => {
    const nine = { weekday: 0, startMinute: 540, endMinute: 600 };
    const input = (now: string) => ({
      timeZone: OWNER,
      rules: { ...allDay, horizonDays: 2 },
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ ...nine, weekday })),
      overrides: [],
      busy: [],
      now: Date.parse(now),
    });
    const [friday] = availableSlots(input("2026-03-27T00:00:00Z"));
    const [monday] = availableSlots(input("2026-03-30T00:00:00Z"));
    expect(new Date(friday?.start ?? 0).toISOString()).toBe("2026-03-27T08:00:00.000Z");
    expect(new Date(monday?.start ?? 0).toISOString()).toBe("2026-03-30T07:00:00.000Z");
    // Los Angeles is already on summer time (8 March): 01:00 then 00:00; Sydney still on summer time (until 5 April): 19:00 then 18:00.
    expect(wallTimeOf(friday?.start ?? 0, "America/Los_Angeles").minute).toBe(60);
    expect(wallTimeOf(monday?.start ?? 0, "America/Los_Angeles")).toMatchObject({ day: "2026-03-30", minute: 0 });
    expect(wallTimeOf(friday?.start ?? 0, "Australia/Sydney")).toMatchObject({ day: "2026-03-27", minute: 19 * 60 });
    expect(wallTimeOf(monday?.start ?? 0, "Australia/Sydney")).toMatchObject({ day: "2026-03-30", minute: 18 * 60 });
  });

  it("keeps a day off and a full daily cap empty, and lets buffers touch busy times without overlapping them", () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    const base = {
      timeZone: OWNER,
      rules: { ...allDay, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
      weekly: everyHour,
      busy: [],
      now,
    };
    expect(
      availableSlots({ ...base, overrides: [{ firstDay: "2026-06-01", lastDay: "2026-06-04", startMinute: null, endMinute: null }] }),
    ).toEqual([]);
    const capped = availableSlots({
      ...base,
      overrides: [],
      bookedPerDay: new Map([["2026-06-02", 1]]),
      rules: { ...base.rules, dailyCap: 1 },
    });
    expect(capped.some((s) => s.day === "2026-06-02")).toBe(false);
    const busy = [{ start: Date.parse("2026-06-02T10:00:00Z"), end: Date.parse("2026-06-02T11:00:00Z") }];
    const around = availableSlots({ ...base, overrides: [], busy }).map((s) => new Date(s.start).toISOString());
    expect(around).toContain("2026-06-02T08:30:00.000Z");
    expect(around).not.toContain("2026-06-02T09:00:00.000Z");
    expect(around).toContain("2026-06-02T11:30:00.000Z");
    expect(around).not.toContain("2026-06-02T11:00:00.000Z");
  });
});

describe("zoned time", () => {
  it("maps each instant's wall time back to it (the first of a repeated hour at fall-back)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...AROUND_CHANGES),
        fc.integer({ min: 0, max: 10 * 24 * 60 }),
        (zone, base, minutes) => {
          const instant = base + minutes * MINUTE;
          const wall = wallTimeOf(instant, zone);
          const back = instantOf(wall.day, wall.minute, zone);
          const repeated = offsetAt(instant - HOUR, zone) > offsetAt(instant, zone) && back === instant - HOUR;
          expect(back === instant || repeated).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
