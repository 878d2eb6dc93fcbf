import { useId, type ComponentProps } from "react";
import { FormField } from "~/components/forms";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";

interface Props {
  schedule: boolean;
  publishAt: string;
  /** The site's time zone (SITE_TIME_ZONE): 'Publish at' is read in it. */
  timeZone: string;
  field: ComponentProps<typeof FormField>["field"];
  onScheduleChange: (schedule: boolean) => void;
  onPublishAtChange: (value: string) => void;
}

/** 'Schedule' beside 'Publish immediately': a scheduled post is published by the server at 'Publish at'. */
export function ScheduleField({ schedule, publishAt, timeZone, field, onScheduleChange, onPublishAtChange }: Props) {
  const id = useId();
  return (
    <div className="space-y-3">
      <div className="flex items-center gap-3">
        <Switch id={`${id}-schedule`} name="schedule" checked={schedule} onCheckedChange={onScheduleChange} />
        <Label htmlFor={`${id}-schedule`}>Schedule</Label>
      </div>
      {schedule ? (
        <FormField field={field} label="Publish at" controlled>
          {(props) => (
            <div className="flex flex-wrap items-center gap-2">
              <Input
                {...props}
                type="datetime-local"
                step={1}
                className="w-auto"
                value={publishAt}
                onChange={(e) => onPublishAtChange(e.target.value)}
                aria-describedby={[props["aria-describedby"], `${id}-zone`].filter(Boolean).join(" ")}
              />
              <span id={`${id}-zone`} className="text-sm text-muted-foreground">
                Time zone: {timeZone}
              </span>
            </div>
          )}
        </FormField>
      ) : null}
    </div>
  );
}
