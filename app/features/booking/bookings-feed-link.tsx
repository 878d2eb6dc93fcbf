import { Form } from "react-router";
import { CopyButton } from "~/components/copy-button";
import { Timestamp } from "~/components/timestamp";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

/**
 * The private calendar feed of bookings on the admin's Bookings page: make, reset or turn off its
 * address. The address is shown once, in the reply to the form that made it (only its hash is kept).
 */
export function BookingsFeedLink({ state, newAddress }: { state: { active: boolean; since: string | null }; newAddress?: string }) {
  return (
    <section aria-labelledby="bookings-feed-heading">
      <h2 id="bookings-feed-heading" className="mt-10 text-2xl font-semibold">
        Your bookings in your calendar
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
        A private address in iCal format that lists your calls with each visitor&apos;s answers. Subscribe to it in your calendar app
        (Google Calendar: Other calendars → From URL; Apple Calendar: File → New Calendar Subscription; Outlook: Add calendar → Subscribe
        from web). Anyone with the address can read your bookings: keep it to yourself, and reset it if it got out.
      </p>
      {newAddress ? (
        <div role="status" className="mt-4 grid max-w-2xl gap-2 rounded-md border border-emerald-600/50 bg-emerald-600/10 p-3">
          <Label htmlFor="bookings-feed-address">Your calendar address (shown only now: copy it into your calendar app)</Label>
          <div className="flex flex-wrap gap-2">
            <Input
              id="bookings-feed-address"
              readOnly
              value={newAddress}
              className="min-w-0 flex-1 font-mono text-sm"
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={newAddress} size="default" />
          </div>
        </div>
      ) : null}
      <p className="mt-4 text-sm" data-testid="bookings-feed-state">
        {state.active && state.since ? (
          <>
            A calendar address is active since <Timestamp iso={state.since} format="utc" />. It is shown only when it is made; &quot;Reset
            link&quot; makes a new one and the old one stops working.
          </>
        ) : (
          "No calendar address: your bookings are not published anywhere."
        )}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="feed-link-reset" />
          <Button type="submit" variant={state.active ? "outline" : "default"}>
            {state.active ? "Reset link" : "Make calendar address"}
          </Button>
        </Form>
        {state.active ? (
          <Form method="post">
            <input type="hidden" name="intent" value="feed-link-off" />
            <Button type="submit" variant="destructive">
              Turn off calendar address
            </Button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
