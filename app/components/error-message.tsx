import { isRouteErrorResponse, Link } from "react-router";
import { statusPageTitle, statusTitle } from "~/lib/http-status";

const GENERIC_DETAILS = "An unexpected error occurred. Please try again.";

/** What an error page may tell the visitor: the thrown message, never React Router's developer text. */
export function errorDetails(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    if (error.status === 405) return "This page does not accept that kind of request. Open it with a normal link instead.";
    // React Router's own errors (e.g. a POST to a page without an action) carry developer text: not shown.
    const internal = "internal" in error && error.internal === true;
    if (!internal && typeof error.data === "string" && error.data) return error.data;
    return GENERIC_DETAILS;
  }
  if (import.meta.env.DEV && error instanceof Error) return error.message;
  return GENERIC_DETAILS;
}

/** Only in development: production never shows a stack trace. */
export function errorStack(error: unknown): string | undefined {
  return import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
}

/** An error page's body and document title, named by its status (lib/http-status). */
export function ErrorMessage({
  status,
  details,
  stack,
  home,
  homeLabel,
}: {
  status: number;
  details: string;
  stack?: string;
  home: string;
  homeLabel: string;
}) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>{statusPageTitle(status)}</title>
      <p className="text-sm font-medium text-muted-foreground">Error {status}</p>
      <h1 className="mt-2 text-3xl font-bold">{statusTitle(status)}</h1>
      <p className="mt-4 text-muted-foreground">{details}</p>
      <Link to={home} className="mt-6 inline-block text-primary underline">
        {homeLabel}
      </Link>
      {stack ? (
        <pre className="mt-6 overflow-x-auto text-left text-xs">
          <code>{stack}</code>
        </pre>
      ) : null}
    </section>
  );
}
