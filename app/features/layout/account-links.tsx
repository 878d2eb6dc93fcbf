import { LayoutDashboard, LogOut } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { useOptionalUser } from "~/lib/use-user";
import { cn } from "~/lib/utils";

/** Login, or the Dashboard and Logout of a signed-in user (top bar and mobile menu). */
export function AccountLinks({ stacked = false }: { stacked?: boolean }) {
  const user = useOptionalUser();
  // Below 2xl the top bar has no room for the labels beside every link: icons, labels kept for screen readers.
  const compact = stacked ? undefined : "lg:max-2xl:px-2";
  const compactIcon = stacked ? "hidden" : "hidden lg:max-2xl:block";
  const compactLabel = stacked ? undefined : "lg:max-2xl:sr-only";
  if (!user) {
    return (
      <Button asChild size="sm" variant="outline">
        <Link to="/auth">Login</Link>
      </Button>
    );
  }
  return (
    <div className={cn("flex gap-2", stacked ? "flex-col items-stretch" : "items-center")}>
      {user.canEdit ? (
        <Button asChild size="sm" variant="secondary" className={compact}>
          <Link to="/admin">
            <LayoutDashboard aria-hidden className={compactIcon} />
            <span className={compactLabel}>Dashboard</span>
          </Link>
        </Button>
      ) : null}
      <Form method="post" action="/logout">
        <Button type="submit" size="sm" variant="outline" className={cn(stacked ? "w-full" : compact)}>
          <LogOut aria-hidden className={compactIcon} />
          <span className={compactLabel}>Logout</span>
        </Button>
      </Form>
    </div>
  );
}
