import { z } from "zod";
import { jsonField } from "~/lib/forms";
import { isSitePath, type BuiltInKind, type SiteMenus } from "./menus";

export const MENU_LIMITS = { label: 40, href: 500, headerItems: 15, columns: 6, columnItems: 20 } as const;

export const MENUS_SAVED = "Menus saved";
export const MENUS_RESET = "Menus reset to the defaults";

const label = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(MENU_LIMITS.label, `${what} must be at most ${MENU_LIMITS.label} characters`);

/** A site path without spaces or backslashes, or an https address (http is refused: mixed content, no privacy). */
function isMenuAddress(href: string): boolean {
  if (isSitePath(href)) return !/[\s\\]/.test(href);
  try {
    return new URL(href).protocol === "https:";
  } catch {
    return false;
  }
}

const builtInKinds = ["newsletter", "services", "categories", "resume"] as const satisfies readonly BuiltInKind[];

const menuItemSchema = z.discriminatedUnion(
  "kind",
  [
    z
      .object({ kind: z.literal("link"), label: label("A link's label"), href: z.string().trim().max(MENU_LIMITS.href) })
      .superRefine((item, ctx) => {
        if (!isMenuAddress(item.href))
          ctx.addIssue({
            code: "custom",
            path: ["href"],
            message: `The address of "${item.label}" must be a path of this site (such as /about) or an https:// address`,
          });
      }),
    z.object({ kind: z.enum(builtInKinds), label: label("A built-in item's label") }),
    // The address is looked up when the menus are drawn: a stored href would go stale when the page moves.
    z.object({
      kind: z.literal("page"),
      label: label("A page item's label"),
      pageId: z.uuid("Choose one of your pages for each page item"),
    }),
  ],
  { error: "Each item is a link or one of the built-in items" },
);

/** The menus as the editor sends them and as they are stored. */
export const siteMenusSchema = z.object({
  header: z.array(menuItemSchema).max(MENU_LIMITS.headerItems, `The header menu holds at most ${MENU_LIMITS.headerItems} items`),
  footer: z
    .array(
      z.object({
        title: label("A footer column's title"),
        items: z.array(menuItemSchema).max(MENU_LIMITS.columnItems, `A footer column holds at most ${MENU_LIMITS.columnItems} items`),
      }),
    )
    .max(MENU_LIMITS.columns, `The footer holds at most ${MENU_LIMITS.columns} columns`),
}) satisfies z.ZodType<SiteMenus>;

/** The editor's form: the menus as JSON in one hidden field. */
export const menusFormSchema = z.object({
  menus: jsonField(siteMenusSchema, "The menus could not be read; reload the page and try again"),
});
