import { cn } from "~/lib/utils";
import { SLOT_PICKER_ATTRIBUTE } from "./booking-dom";
import type { PickerData } from "./slot-picker.server";

/** What a picker link changes: the day, the slot, or the zone list drawn whole (`zones=all`). */
export interface PickerChange {
  day?: string;
  slot?: string;
  zones?: "all";
}

/**
 * The day list and the slot list as plain links (they work without JavaScript; plain anchors, as the
 * page is not hydrated for visitors, and ~50 days of them are drawn on each render), plus a small GET
 * form to show the times in another zone: the common zones, and a link to the page with all of them.
 * `hrefFor` builds each link from the query it changes.
 */
export function SlotPicker({
  picker,
  hrefFor,
  hidden,
  zones,
  allZones,
}: {
  picker: PickerData;
  hrefFor: (query: PickerChange) => string;
  /** Fields the zone form keeps (e.g. the call type, the signed link's token). */
  hidden: Record<string, string>;
  zones: readonly string[];
  /** Whether `zones` is every zone (else a link offers them). */
  allZones: boolean;
}) {
  return (
    <div className="space-y-6" {...{ [SLOT_PICKER_ATTRIBUTE]: "" }} data-time-zone={picker.timeZone}>
      <form method="get" className="flex flex-wrap items-end gap-2 text-sm">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className="grid gap-1">
          <span className="font-medium">Times shown in</span>
          <select name="tz" defaultValue={picker.timeZone} className="h-9 rounded-md border bg-background px-2">
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="h-9 rounded-md border px-3 font-medium hover:bg-accent">
          Show times
        </button>
        {allZones ? null : (
          <a
            href={hrefFor({ day: picker.selectedDay ?? undefined, slot: picker.selectedSlot?.start, zones: "all" })}
            className="flex h-9 items-center text-primary underline underline-offset-4"
          >
            All time zones
          </a>
        )}
      </form>
      {picker.days.length === 0 ? (
        <p>No times are free at the moment. Please use the contact form and we will find one.</p>
      ) : (
        <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
          <nav aria-label="Days with free times">
            <h2 className="mb-2 text-lg font-semibold">Pick a day</h2>
            <ul className="grid max-h-[28rem] gap-1 overflow-y-auto pr-1">
              {picker.days.map((d) => (
                <li key={d.day}>
                  <a
                    href={hrefFor({ day: d.day })}
                    aria-current={d.day === picker.selectedDay ? "date" : undefined}
                    className={cn(
                      "flex justify-between rounded-md border px-3 py-2 text-sm hover:bg-accent",
                      d.day === picker.selectedDay && "border-primary bg-primary/10 font-semibold",
                    )}
                  >
                    <span>{d.label}</span>
                    <span className="text-muted-foreground">
                      {d.count} {d.count === 1 ? "time" : "times"}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <section aria-labelledby="slot-heading">
            <h2 id="slot-heading" className="mb-2 text-lg font-semibold">
              Pick a time <span className="text-sm font-normal text-muted-foreground">({picker.timeZone.replace(/_/g, " ")})</span>
            </h2>
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
              {picker.slots.map((s) => (
                <li key={s.start}>
                  <a
                    href={hrefFor({ day: picker.selectedDay ?? undefined, slot: s.start })}
                    aria-current={picker.selectedSlot?.start === s.start ? "true" : undefined}
                    className={cn(
                      "block rounded-md border px-3 py-2 text-center text-sm hover:bg-accent",
                      picker.selectedSlot?.start === s.start && "border-primary bg-primary text-primary-foreground hover:bg-primary",
                    )}
                  >
                    <time dateTime={s.start}>{s.label}</time>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </div>
  );
}

/** A picker link's address: the page's path with the kept fields and the changed ones. */
export function pickerHref(path: string, keep: Record<string, string | undefined>, change: PickerChange): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...keep, ...change })) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
