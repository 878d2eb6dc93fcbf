import { isRouteErrorResponse } from "react-router";
import { ErrorMessage, errorDetails } from "~/components/error-message";
import { NotFoundMessage } from "~/components/not-found-message";
import { useLayoutCopy } from "~/features/pages/use-layout-copy";
import { useAdminSidebar } from "./sidebar-state";

/**
 * An admin page's error. The shell is not drawn around it: when the shell's data loaded (a page inside
 * it failed) the site chrome is off and this carries the one main landmark; otherwise (the shell's own
 * loader refused) the public chrome is drawn and gives the main landmark.
 */
export function AdminErrorPage({ error }: { error: unknown }) {
  const { onAdminRoute } = useAdminSidebar();
  const { notFoundText } = useLayoutCopy();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404 ? (
      <NotFoundMessage text={notFoundText} />
    ) : (
      <ErrorMessage status={status} details={errorDetails(error)} home="/admin" homeLabel="Back to Dashboard" />
    );
  if (!onAdminRoute) return message;
  return (
    <main id="main" className="flex-1">
      {message}
    </main>
  );
}
