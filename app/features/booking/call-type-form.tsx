import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { CallTypeRow } from "./bookings-page.server";

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

/** One call type's form (or an empty one to add a call type). */
export function CallTypeForm({ type }: { type: CallTypeRow | null }) {
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
