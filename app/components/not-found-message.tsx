import { Link } from "react-router";

export const NOT_FOUND_TEXT = "Oops! Page not found";

/** SPEC §2 not-found page: the one look of every 404, whether from the catch-all route or a loader. */
export function NotFoundMessage() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-4xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">{NOT_FOUND_TEXT}</p>
      <Link to="/" className="mt-6 text-primary underline hover:no-underline">
        Return to Home
      </Link>
    </section>
  );
}
