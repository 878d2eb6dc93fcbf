import { data } from "react-router";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm, type AdminFormContext } from "~/features/admin/admin-form.server";
import { PositionManagement, type PositionActionData } from "~/features/pages/position-management";
import { positionInputSchema } from "~/features/pages/positions-schema";
import {
  createPosition,
  deletePosition,
  listPositions,
  movePosition,
  sortPositionsByDate,
  updatePosition,
} from "~/features/pages/positions.server";
import { getDb } from "~/server/db/client.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/recent-positions";

// The screen keeps the SPEC's name (Recent Roles); in code a job is a "position", a "role" is a permission.
export function meta() {
  return [{ title: "Recent Roles" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireArea(request, "page-content");
  return { positions: await listPositions(getDb()) };
}

const BACK = "/admin/recent-roles";

export async function action({ request }: Route.ActionArgs) {
  // The submission is kept for the form's reply; the domain function decides (a refusal comes before any field error).
  const save = async ({ actor, db, form, parse }: AdminFormContext) => {
    parse(positionInputSchema);
    const created = form.intent === "create";
    const saved = created ? await createPosition(db, actor, form) : await updatePosition(db, actor, form.id, form);
    return redirectWithToast(BACK, {
      title: created ? "Role added" : "Role saved",
      description: `${saved.title}, ${saved.company} is on the Recent Roles page.`,
      type: "success",
    });
  };
  return handleAdminForm(request, "page-content", {
    create: save,
    update: save,
    delete: async ({ actor, db, form }) => {
      const deleted = await deletePosition(db, actor, form.id);
      const description = `${deleted.title}, ${deleted.company} was removed from the timeline.`;
      return redirectWithToast(BACK, { title: "Role deleted", description, type: "success" });
    },
    sort: async ({ actor, db }) => {
      const { unread } = await sortPositionsByDate(db, actor);
      const description =
        unread === 0
          ? "The timeline is in date order, most recent first."
          : `The timeline is in date order, most recent first; ${unread === 1 ? "1 role whose period could not be read is" : `${unread} roles whose periods could not be read are`} at the end (write periods like "02/2022 – Present").`;
      return redirectWithToast(BACK, { title: "Roles sorted by date", description, type: "success" });
    },
    move: async ({ actor, db, form }) => {
      await movePosition(db, actor, form.id, form.direction);
      return data<PositionActionData>({ ok: true });
    },
  });
}

export default function RecentPositionsAdminRoute({ loaderData }: Route.ComponentProps) {
  return <PositionManagement positions={loaderData.positions} />;
}
