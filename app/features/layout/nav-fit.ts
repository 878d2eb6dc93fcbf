/**
 * Which header links fit beside the site name. The name is never cut: the navigation is a CSS
 * container that takes the room the name leaves, and each link shows only from the container width
 * at which it and every link before it fit (the rest wait in the "More" menu). The widths are
 * estimated from the labels, generously, so a link shows a little late rather than overflowing.
 * Container queries work without JavaScript and follow the real width of the name, whatever its
 * length and font.
 */

/** Pixels per character of a 14 px label (wide system fonts run about 7.5). */
const CHAR_WIDTH = 8;
/** A link's padding plus the gap to the next one. */
const ITEM_PADDING = 8 + 8;
/** A menu button's chevron. */
const CHEVRON = 20;
/** The "More" button, reserved while any link waits in it. */
export const MORE_WIDTH = 4 * CHAR_WIDTH + ITEM_PADDING + CHEVRON;
/** The search field when it shows instead of its icon (w-56 plus the gap), and the icon. */
const SEARCH_FIELD_WIDTH = 224 + 8;
const SEARCH_ICON_WIDTH = 36 + 8;

export const FIT_STEP = 40;
export const FIT_MAX = 1600;

/**
 * The container-query classes, written out so Tailwind generates them (it reads class names from the
 * source text): a "show from" class displays the item from that container width, a "hide from" class hides it, in FIT_STEP steps.
 */
const SHOW_FROM: Record<number, string> = {
  40: "@min-[40px]:block",
  80: "@min-[80px]:block",
  120: "@min-[120px]:block",
  160: "@min-[160px]:block",
  200: "@min-[200px]:block",
  240: "@min-[240px]:block",
  280: "@min-[280px]:block",
  320: "@min-[320px]:block",
  360: "@min-[360px]:block",
  400: "@min-[400px]:block",
  440: "@min-[440px]:block",
  480: "@min-[480px]:block",
  520: "@min-[520px]:block",
  560: "@min-[560px]:block",
  600: "@min-[600px]:block",
  640: "@min-[640px]:block",
  680: "@min-[680px]:block",
  720: "@min-[720px]:block",
  760: "@min-[760px]:block",
  800: "@min-[800px]:block",
  840: "@min-[840px]:block",
  880: "@min-[880px]:block",
  920: "@min-[920px]:block",
  960: "@min-[960px]:block",
  1000: "@min-[1000px]:block",
  1040: "@min-[1040px]:block",
  1080: "@min-[1080px]:block",
  1120: "@min-[1120px]:block",
  1160: "@min-[1160px]:block",
  1200: "@min-[1200px]:block",
  1240: "@min-[1240px]:block",
  1280: "@min-[1280px]:block",
  1320: "@min-[1320px]:block",
  1360: "@min-[1360px]:block",
  1400: "@min-[1400px]:block",
  1440: "@min-[1440px]:block",
  1480: "@min-[1480px]:block",
  1520: "@min-[1520px]:block",
  1560: "@min-[1560px]:block",
  1600: "@min-[1600px]:block",
};
const HIDE_FROM: Record<number, string> = {
  40: "@min-[40px]:hidden",
  80: "@min-[80px]:hidden",
  120: "@min-[120px]:hidden",
  160: "@min-[160px]:hidden",
  200: "@min-[200px]:hidden",
  240: "@min-[240px]:hidden",
  280: "@min-[280px]:hidden",
  320: "@min-[320px]:hidden",
  360: "@min-[360px]:hidden",
  400: "@min-[400px]:hidden",
  440: "@min-[440px]:hidden",
  480: "@min-[480px]:hidden",
  520: "@min-[520px]:hidden",
  560: "@min-[560px]:hidden",
  600: "@min-[600px]:hidden",
  640: "@min-[640px]:hidden",
  680: "@min-[680px]:hidden",
  720: "@min-[720px]:hidden",
  760: "@min-[760px]:hidden",
  800: "@min-[800px]:hidden",
  840: "@min-[840px]:hidden",
  880: "@min-[880px]:hidden",
  920: "@min-[920px]:hidden",
  960: "@min-[960px]:hidden",
  1000: "@min-[1000px]:hidden",
  1040: "@min-[1040px]:hidden",
  1080: "@min-[1080px]:hidden",
  1120: "@min-[1120px]:hidden",
  1160: "@min-[1160px]:hidden",
  1200: "@min-[1200px]:hidden",
  1240: "@min-[1240px]:hidden",
  1280: "@min-[1280px]:hidden",
  1320: "@min-[1320px]:hidden",
  1360: "@min-[1360px]:hidden",
  1400: "@min-[1400px]:hidden",
  1440: "@min-[1440px]:hidden",
  1480: "@min-[1480px]:hidden",
  1520: "@min-[1520px]:hidden",
  1560: "@min-[1560px]:hidden",
  1600: "@min-[1600px]:hidden",
};

/** Rounds up to the next step; beyond FIT_MAX the item never shows in the bar (null). */
function step(width: number): number | null {
  const rounded = Math.ceil(width / FIT_STEP) * FIT_STEP;
  return rounded <= FIT_MAX ? rounded : null;
}

export interface FitItem {
  label: string;
  /** A menu button (a chevron beside the label). */
  menu?: boolean;
}

export interface NavFit {
  /** Per item: classes for its place in the bar, and for its entry in the "More" menu. */
  items: { bar: string; more: string }[];
  /** The "More" button: hidden once every item fits. */
  more: string;
  /** The search field and its icon: the field only when every item fits beside it. */
  searchField: string;
  searchIcon: string;
}

const show = (from: number | null) => (from === null ? "hidden" : `hidden ${SHOW_FROM[from] ?? ""}`);
const hide = (from: number | null) => (from === null ? "" : (HIDE_FROM[from] ?? ""));

export function itemWidth(item: FitItem): number {
  return item.label.length * CHAR_WIDTH + ITEM_PADDING + (item.menu ? CHEVRON : 0);
}

/** The classes that show each item once the container has room for it and every item before it. */
export function fitNavigation(items: readonly FitItem[]): NavFit {
  let used = SEARCH_ICON_WIDTH;
  const widths = items.map(itemWidth);
  const total = used + widths.reduce((sum, width) => sum + width, 0);
  const all = step(total);
  let previous = 0;
  const fitted = widths.map((width, index) => {
    used += width;
    // The last item needs no room for "More": with it every item is in the bar. Never before the one ahead of it.
    const own = index === widths.length - 1 ? all : step(used + MORE_WIDTH);
    const from = own === null ? null : Math.max(own, previous);
    if (from !== null) previous = from;
    return { bar: show(from), more: hide(from) };
  });
  const withSearch = step(total - SEARCH_ICON_WIDTH + SEARCH_FIELD_WIDTH);
  return { items: fitted, more: hide(all), searchField: show(withSearch), searchIcon: hide(withSearch) };
}
