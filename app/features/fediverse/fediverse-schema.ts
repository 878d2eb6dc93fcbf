import { z } from "zod";

/** The fediverse settings form (admin → Settings) and what it says. */
export const DEFAULT_HANDLE = "blog";

export const FEDIVERSE_TEXTS = {
  forbidden: "Only administrators can change the fediverse settings.",
  saved: "Fediverse settings saved",
  removed: "Follower removed",
  blocked: "Follower blocked",
  chooseFollower: "Choose a follower.",
  badOutboxPage: "This outbox page address is not valid: start again from the outbox's first page.",
  notFollowing: "This account does not follow the site (any more).",
  handleInvalid: "Use 1 to 30 letters, digits or underscores for the handle.",
} as const;

export const fediverseSettingsSchema = z.object({
  handle: z
    .string({ error: FEDIVERSE_TEXTS.handleInvalid })
    .trim()
    .regex(/^[A-Za-z0-9_]{1,30}$/, FEDIVERSE_TEXTS.handleInvalid),
});
export type FediverseSettings = z.output<typeof fediverseSettingsSchema>;
