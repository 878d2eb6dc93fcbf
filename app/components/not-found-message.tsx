import { Link } from "react-router";

/** SPEC §2 not-found page: the one look of every 404, whether from the catch-all route or a loader; `text` is the owner's. */
export function NotFoundMessage({ text }: { text: string }) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-4xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">{text}</p>
      <Link to="/" className="mt-6 text-primary underline hover:no-underline">
        Return to Home
      </Link>
    </section>
  );
}
