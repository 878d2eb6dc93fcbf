import { Form } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { listCallTypes, readAvailabilityText, saveAvailability, saveCallType } from "~/features/booking/booking-admin.server";
import { cancelBookingByOwner, listBookings, ownerTimeZone, setNoShow } from "~/features/booking/booking.server";
import { STATUS_TEXT } from "~/features/booking/booking-view.server";
import { longLabel } from "~/features/booking/slot-picker.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/bookings";

export function meta() {
  return [{ title: "Bookings — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "bookings");
  const db = getDb();
  const zone = ownerTimeZone();
  const [upcoming, past, callTypes, availability] = await withPageFailures(() =>
    Promise.all([
      listBookings(db, actor, "upcoming"),
      listBookings(db, actor, "past", 50),
      listCallTypes(db, actor),
      readAvailabilityText(db, actor),
    ]),
  );
  const row = (b: (typeof upcoming)[number]) => ({
    id: b.id,
    when: longLabel(b.startsAt.getTime(), zone),
    start: b.startsAt.toISOString(),
    callTypeName: b.callTypeName,
    name: b.name,
    email: b.email,
    phone: b.phone,
    company: b.company,
    topic: b.topic,
    notes: b.notes,
    visitorTimeZone: b.visitorTimeZone,
    status:
      b.status === "confirmed" && b.rescheduleCount > 0
        ? "Confirmed (rescheduled)"
        : STATUS_TEXT[b.status].replace("by you", "by visitor").replace("by me", "by you"),
    confirmed: b.status === "confirmed",
    noShow: b.noShow,
    cancelMessage: b.cancelMessage,
  });
  return {
    zone,
    mailConfigured: await isMailConfigured(db),
    upcoming: upcoming.map(row),
    past: past.map(row),
    callTypes: callTypes.map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() })),
    availability,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const done = (title: string) => redirectWithToast("/admin/bookings", { title, type: "success" });
  return handleAdminForm(request, "bookings", {
    cancel: async ({ actor, db, form }) => {
      await cancelBookingByOwner(db, actor, String(form.id ?? ""), String(form.message ?? ""));
      return done("Call cancelled; the visitor is told by email");
    },
    "no-show": async ({ actor, db, form }) => {
      await setNoShow(db, actor, String(form.id ?? ""), form.noShow === "true");
      return done(form.noShow === "true" ? "Marked as no-show" : "No-show mark removed");
    },
    availability: async ({ actor, db, form }) => {
      await saveAvailability(db, actor, form.availability);
      return done("Availability saved");
    },
    "call-type": async ({ actor, db, form, formData }) => {
      await saveCallType(db, actor, { ...form, questions: formData.getAll("questions") });
      return done("Call type saved");
    },
  });
}

type Row = Route.ComponentProps["loaderData"]["upcoming"][number];

function BookingRows({ rows, caption, upcoming }: { rows: Row[]; caption: string; upcoming: boolean }) {
  if (rows.length === 0) return <p className="mt-2 text-muted-foreground">None.</p>;
  return (
    <ul className="mt-4 grid gap-4" aria-label={caption}>
      {rows.map((b) => (
        <li key={b.id} className="rounded-lg border p-4" data-testid="booking-row">
          <p className="font-semibold">
            <time dateTime={b.start}>{b.when}</time> · {b.callTypeName}
          </p>
          <p>
            {b.name} &lt;{b.email}&gt;{b.phone ? ` · ${b.phone}` : ""}
            {b.visitorTimeZone ? <span className="text-muted-foreground"> · visitor in {b.visitorTimeZone}</span> : null}
          </p>
          {b.company ? <p>Company: {b.company}</p> : null}
          {b.topic ? <p>Topic: {b.topic}</p> : null}
          {b.notes ? <p className="whitespace-pre-wrap">Notes: {b.notes}</p> : null}
          <p className="mt-1 text-sm">
            Status: <strong data-testid="booking-status">{b.status}</strong>
            {b.noShow ? " · no-show" : ""}
            {b.cancelMessage ? ` · message: ${b.cancelMessage}` : ""}
          </p>
          <div className="mt-3 flex flex-wrap items-end gap-4">
            {upcoming && b.confirmed ? (
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="cancel" />
                <input type="hidden" name="id" value={b.id} />
                <div className="grid gap-1">
                  <Label htmlFor={`cancel-message-${b.id}`}>Message to the visitor (optional)</Label>
                  <Input id={`cancel-message-${b.id}`} name="message" maxLength={1000} className="w-72" />
                </div>
                <Button type="submit" variant="destructive" size="sm">
                  Cancel call
                </Button>
              </Form>
            ) : null}
            {!upcoming && b.confirmed ? (
              <Form method="post">
                <input type="hidden" name="intent" value="no-show" />
                <input type="hidden" name="id" value={b.id} />
                <input type="hidden" name="noShow" value={b.noShow ? "false" : "true"} />
                <Button type="submit" variant="outline" size="sm">
                  {b.noShow ? "Remove no-show mark" : "Mark as no-show"}
                </Button>
              </Form>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

type CallTypeRow = Route.ComponentProps["loaderData"]["callTypes"][number];

function NumberField({
  id,
  name,
  label,
  value,
  min,
  max,
}: {
  id: string;
  name: string;
  label: string;
  value: number | null;
  min: number;
  max: number;
}) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} type="number" min={min} max={max} defaultValue={value ?? ""} className="w-32" />
    </div>
  );
}

function CallTypeForm({ type }: { type: CallTypeRow | null }) {
  const key = type?.id ?? "new";
  const id = (name: string) => `ct-${key}-${name}`;
  return (
    <Form method="post" className="grid gap-3 rounded-lg border p-4" aria-label={type ? `Call type ${type.name}` : "New call type"}>
      <input type="hidden" name="intent" value="call-type" />
      <input type="hidden" name="id" value={type?.id ?? ""} />
      <div className="flex flex-wrap gap-3">
        <div className="grid gap-1">
          <Label htmlFor={id("name")}>Name</Label>
          <Input id={id("name")} name="name" required defaultValue={type?.name ?? ""} className="w-72" />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={id("slug")}>Address name</Label>
          <Input id={id("slug")} name="slug" required defaultValue={type?.slug ?? ""} className="w-48" />
        </div>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={id("description")}>Description</Label>
        <Textarea id={id("description")} name="description" rows={2} defaultValue={type?.description ?? ""} />
      </div>
      <div className="flex flex-wrap gap-3">
        <NumberField
          id={id("duration")}
          name="durationMinutes"
          label="Duration (min)"
          value={type?.durationMinutes ?? 30}
          min={5}
          max={480}
        />
        <NumberField
          id={id("increment")}
          name="incrementMinutes"
          label="Slot increment (min)"
          value={type?.incrementMinutes ?? 30}
          min={5}
          max={480}
        />
        <NumberField
          id={id("before")}
          name="bufferBeforeMinutes"
          label="Buffer before (min)"
          value={type?.bufferBeforeMinutes ?? 0}
          min={0}
          max={240}
        />
        <NumberField
          id={id("after")}
          name="bufferAfterMinutes"
          label="Buffer after (min)"
          value={type?.bufferAfterMinutes ?? 0}
          min={0}
          max={240}
        />
        <NumberField
          id={id("notice")}
          name="minimumNoticeMinutes"
          label="Minimum notice (min)"
          value={type?.minimumNoticeMinutes ?? 720}
          min={0}
          max={43200}
        />
        <NumberField id={id("horizon")} name="horizonDays" label="Horizon (days)" value={type?.horizonDays ?? 60} min={1} max={365} />
        <NumberField id={id("cap")} name="dailyCap" label="Daily cap (empty: none)" value={type?.dailyCap ?? null} min={1} max={100} />
        <NumberField id={id("order")} name="displayOrder" label="Order" value={type?.displayOrder ?? 0} min={0} max={1000} />
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor={id("location")}>Where</Label>
          <select
            id={id("location")}
            name="location"
            defaultValue={type?.location ?? "link-later"}
            className="h-9 rounded-md border bg-background px-2 text-sm"
          >
            <option value="video">Video call (my link)</option>
            <option value="phone">Phone call to the visitor</option>
            <option value="link-later">I will send a link</option>
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={id("video")}>Video link</Label>
          <Input id={id("video")} name="videoUrl" type="url" defaultValue={type?.videoUrl ?? ""} className="w-80" />
        </div>
      </div>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium">Also ask for (name and email are always asked)</legend>
        {(["company", "topic", "notes"] as const).map((q) => (
          <label key={q} className="flex items-center gap-1">
            <input type="checkbox" name="questions" value={q} defaultChecked={type?.questions.includes(q) ?? false} />{" "}
            {q === "notes" ? "free text" : q}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-1">
          <input type="checkbox" name="remind24h" defaultChecked={type?.remind24h ?? true} /> Reminder 24 h before
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="remind1h" defaultChecked={type?.remind1h ?? true} /> Reminder 1 h before
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="active" defaultChecked={type?.active ?? true} /> Active
        </label>
      </div>
      <div>
        <Button type="submit" size="sm">
          {type ? "Save call type" : "Add call type"}
        </Button>
      </div>
    </Form>
  );
}

export default function Bookings({ loaderData, actionData }: Route.ComponentProps) {
  useFailureToast(actionData && "error" in actionData ? actionData : undefined);
  const { upcoming, past, callTypes, availability, zone, mailConfigured } = loaderData;
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Bookings</h1>
      <p className="mt-2 text-muted-foreground">Times in the site&apos;s time zone, {zone}. Visitors book at /book.</p>
      {!mailConfigured ? (
        <p role="status" className="mt-4 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
          Email is not configured (SMTP_URL), so neither you nor visitors get booking emails or reminders. Booking still works: the
          visitor&apos;s confirmation page carries the .ics download and the cancel and reschedule links.
        </p>
      ) : null}
      <h2 className="mt-8 text-2xl font-semibold">Upcoming</h2>
      <BookingRows rows={upcoming} caption="Upcoming calls" upcoming />
      <h2 className="mt-10 text-2xl font-semibold">Past</h2>
      <BookingRows rows={past} caption="Past calls" upcoming={false} />
      <h2 className="mt-10 text-2xl font-semibold">Availability</h2>
      <Form method="post" className="mt-4 grid max-w-2xl gap-2">
        <input type="hidden" name="intent" value="availability" />
        <Label htmlFor="availability">Weekly hours and date overrides, one a line</Label>
        <p id="availability-hint" className="text-sm text-muted-foreground">
          &quot;Mon 09:00-12:00, 14:00-17:00&quot; for weekly hours; &quot;2026-12-24 off&quot; or &quot;2026-12-24..2027-01-02 off&quot;
          for days off; &quot;2026-12-28 10:00-12:00&quot; for other hours on a date.
        </p>
        <Textarea
          id="availability"
          name="availability"
          rows={10}
          defaultValue={availability}
          aria-describedby="availability-hint"
          className="font-mono"
        />
        <div>
          <Button type="submit">Save availability</Button>
        </div>
      </Form>
      <h2 className="mt-10 text-2xl font-semibold">Call types</h2>
      <p className="mt-1 text-sm text-muted-foreground">The first active one (by order) is the default, shown on the home page.</p>
      <div className="mt-4 grid gap-6">
        {callTypes.map((t) => (
          <CallTypeForm key={t.id} type={t} />
        ))}
        <h3 className="text-lg font-semibold">Add a call type</h3>
        <CallTypeForm type={null} />
      </div>
    </section>
  );
}
