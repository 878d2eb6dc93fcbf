import { useRouteLoaderData } from "react-router";
import { cn } from "~/lib/utils";
import { SubscribeForm } from "./subscribe-form-deferred";
import { SUBSCRIBE_TEXT } from "./subscription-schema";

type Offer = "form" | "unavailable" | "off";

/** What the root loader says public pages offer (the form outside the root route, e.g. in tests). */
export function useSubscriptionOffer(): Offer {
  const data = useRouteLoaderData("root") as { subscriptionOffer?: Offer } | undefined;
  return data?.subscriptionOffer ?? "form";
}

/**
 * The Subscribe form where email can be sent; while it cannot, a line saying so and the RSS feed
 * instead (nothing public may promise an email that cannot go out); nothing when the owner turned
 * subscriptions off.
 */
export function SubscribeOffer({ id, className, page = false }: { id: string; className?: string; page?: boolean }) {
  const offer = useSubscriptionOffer();
  // The /subscribe page itself says why there is no form, whatever the reason.
  if (offer === "off" && !page) return null;
  if (offer === "form") return <SubscribeForm id={id} className={className} />;
  return (
    <section aria-labelledby={`${id}-heading`} className={cn("rounded-lg border p-4", className)} data-testid="subscribe-unavailable">
      {page ? (
        <h1 id={`${id}-heading`} className="text-3xl font-bold">
          Subscribe
        </h1>
      ) : (
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          Subscribe
        </h2>
      )}
      <p className="mt-1 text-sm text-muted-foreground">
        {SUBSCRIBE_TEXT.unavailable}{" "}
        <a href="/rss.xml" className="text-primary underline underline-offset-4">
          {SUBSCRIBE_TEXT.followRss}
        </a>
        .
      </p>
    </section>
  );
}
