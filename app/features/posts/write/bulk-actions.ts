/** What Blog Management does to the selected posts. */
export const BULK_ACTIONS = ["publish", "unpublish", "move", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_MESSAGES = {
  unknownAction: "Choose publish, unpublish, move or delete.",
  noPosts: "Select at least one post.",
  tooMany: "Select at most one page of posts at a time.",
  categoryRequired: "Choose the category to move the posts to",
  unknownPost: "A selected post",
  gone: "It no longer exists.",
} as const;

/** The result toast: how many posts changed, and how many were left alone (each reason is listed beside it). */
export function bulkResultText(action: BulkAction, done: number, skipped: number): string {
  const posts = (n: number) => `${n} ${n === 1 ? "post" : "posts"}`;
  const verb = { publish: "published", unpublish: "unpublished", move: "moved", delete: "deleted" }[action];
  return `${posts(done)} ${verb}${skipped > 0 ? `, ${posts(skipped)} skipped` : ""}`;
}
