import { Form, Link } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { useIsSubmitting } from "~/components/forms";
import { Timestamp } from "~/components/timestamp";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { ownerPagePath } from "~/features/owner-pages/owner-page-schema";
import { deletePage, listPagesForAdmin, readBuiltInPages, setHeroMockupsPublished } from "~/features/owner-pages/owner-pages.server";
import { getDb } from "~/server/db/client.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/pages";

export function meta() {
  return [{ title: "Pages" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "page-content");
  const db = getDb();
  const [pages, builtIn] = await Promise.all([listPagesForAdmin(db, actor), readBuiltInPages(db, actor)]);
  return { pages, builtIn };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "page-content", {
    delete: async ({ actor, db, form }) => {
      const deleted = await deletePage(db, actor, form.id);
      return redirectWithToast("/admin/pages", {
        title: "Page deleted",
        description: `${ownerPagePath(deleted.address)} is gone; menu items that linked it are no longer shown.`,
        type: "success",
      });
    },
    "hero-mockups": async ({ actor, db, form }) => {
      const published = await setHeroMockupsPublished(db, actor, form.published);
      return redirectWithToast("/admin/pages", {
        title: published ? "Hero Mockups published" : "Hero Mockups unpublished",
        description: published ? "/hero-mockups is public again." : "/hero-mockups answers “not found” until you publish it again.",
        type: "success",
      });
    },
  });
}

export default function PagesRoute({ loaderData }: Route.ComponentProps) {
  const deleting = useIsSubmitting({ intent: "delete" });
  const switching = useIsSubmitting({ intent: "hero-mockups" });
  const { pages, builtIn } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Pages</h1>
          <p className="mt-2 text-muted-foreground">
            Your own pages, such as /speaking or /uses: written like posts, published or kept as drafts, and added to the header or footer
            in{" "}
            <Link to="/admin/menus" className="text-primary underline hover:no-underline">
              Menus
            </Link>
            .
          </p>
        </div>
        <Link to="/admin/pages/new" className={buttonVariants()}>
          New page
        </Link>
      </div>
      {pages.length === 0 ? (
        <p className="text-muted-foreground">No pages yet.</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Title</TableHead>
              <TableHead scope="col">Address</TableHead>
              <TableHead scope="col">Status</TableHead>
              <TableHead scope="col">Updated</TableHead>
              <TableHead scope="col">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {pages.map((page) => (
              <TableRow key={page.id}>
                <TableCell className="font-medium">
                  <Link to={`/admin/pages/${page.id}`} className="text-primary underline hover:no-underline">
                    {page.title}
                  </Link>
                </TableCell>
                <TableCell>
                  <a href={ownerPagePath(page.address)} className="underline hover:no-underline">
                    {ownerPagePath(page.address)}
                  </a>
                </TableCell>
                <TableCell>
                  <Badge variant={page.published ? "default" : "secondary"}>{page.published ? "Published" : "Draft"}</Badge>
                </TableCell>
                <TableCell>
                  <Timestamp iso={page.updatedAt} format="local" />
                </TableCell>
                <TableCell>
                  <ConfirmDialog
                    trigger={
                      <Button type="button" variant="outline" size="sm" aria-label={`Delete ${page.title}`}>
                        Delete
                      </Button>
                    }
                    title={`Delete "${page.title}"?`}
                    description={`${ownerPagePath(page.address)} will answer "not found", its revisions go with it, and menu items linking it stop showing.`}
                    busy={deleting}
                  >
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={page.id} />
                      <Button type="submit" variant="destructive" disabled={deleting}>
                        Delete page
                      </Button>
                    </Form>
                  </ConfirmDialog>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <section aria-labelledby="built-in-pages" className="grid gap-3">
        <h2 id="built-in-pages" className="text-xl font-semibold">
          Built-in pages
        </h2>
        <div className="flex flex-wrap items-center gap-3 rounded-md border p-4">
          <p className="flex-1 text-sm">
            <a href="/hero-mockups" className="font-medium underline hover:no-underline">
              Hero Mockups
            </a>{" "}
            (/hero-mockups): design options for the home page&apos;s hero.{" "}
            {builtIn.heroMockups ? "Published." : "Unpublished: visitors get the not-found page."}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="hero-mockups" />
            <input type="hidden" name="published" value={builtIn.heroMockups ? "false" : "true"} />
            <Button type="submit" variant="outline" size="sm" disabled={switching}>
              {builtIn.heroMockups ? "Unpublish Hero Mockups" : "Publish Hero Mockups"}
            </Button>
          </Form>
        </div>
      </section>
    </div>
  );
}
