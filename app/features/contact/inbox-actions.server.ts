import { data } from "react-router";
import { z } from "zod";
import type { SessionUser } from "~/features/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithToast } from "~/server/toast.server";
import { deleteContactMessage, listContactMessages, retryMessageDelivery, setMessageHandled } from "./contact.server";

/** What the inbox's buttons post. */
export const inboxActionSchema = z.object({
  intent: z.enum(["handled", "unhandled", "retry", "delete"]),
  id: z.uuid("Unknown message"),
});

export const INBOX_ACTION_NOT_UNDERSTOOD = "That request was not understood. Please reload the page.";

const DONE: Record<z.infer<typeof inboxActionSchema>["intent"], string> = {
  handled: "Marked as handled.",
  unhandled: "Marked as not handled.",
  retry: "Queued for delivery now.",
  delete: "Message deleted.",
};

/** Runs one inbox button on one message; `page` is the inbox page it was pressed on. */
export async function applyInboxAction(db: Db, user: SessionUser, { intent, id }: z.infer<typeof inboxActionSchema>, page: number) {
  if (intent === "handled" || intent === "unhandled") await setMessageHandled(db, user, id, intent === "handled");
  else if (intent === "retry") await retryMessageDelivery(db, user, id);
  else {
    await deleteContactMessage(db, user, id);
    // The last message of the last page went: past the last page is a 404, so go to the new last page.
    const { pageCount } = page > 1 ? await listContactMessages(db, 1) : { pageCount: 1 };
    if (page > pageCount)
      return await redirectWithToast(pageCount > 1 ? `/admin/messages?page=${pageCount}` : "/admin/messages", {
        title: DONE.delete,
        type: "success",
      });
  }
  return data({ ok: true as const, message: DONE[intent] });
}
