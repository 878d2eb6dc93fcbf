import { Button } from "~/components/ui/button";

/** An action's answer in one sentence: announced as a status when it worked, as an alert when not. */
export function ActionMessage({ result, className = "mt-4" }: { result: { ok: boolean; message: string }; className?: string }) {
  return (
    <p role={result.ok ? "status" : "alert"} className={className || undefined}>
      {result.message}
    </p>
  );
}

/**
 * A page an emailed link opens: GET shows one button and changes nothing (mail scanners open links);
 * the button's POST does the work, and its answer replaces the button.
 */
export function EmailLinkPage({
  title,
  result,
  action,
  submitLabel,
}: {
  title: string;
  result: { ok: boolean; message: string } | undefined;
  /** The link's own URL (the token is in its query), where the button posts. */
  action: string;
  submitLabel: string;
}) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">{title}</h1>
      {result ? (
        <ActionMessage result={result} />
      ) : (
        <form method="post" action={action} className="mt-6">
          <Button type="submit">{submitLabel}</Button>
        </form>
      )}
    </section>
  );
}
