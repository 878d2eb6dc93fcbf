import { z } from "zod";

const httpUrl = z.url({ protocol: /^https?$/ });

/** One external feed entry as the home page shows it (SPEC §3 "External feed item"). */
export const feedItemSchema = z.object({
  title: z.string().trim().min(1).max(300),
  description: z.string().trim().max(600),
  image: httpUrl.nullable(),
  link: httpUrl,
});

export type FeedItem = z.infer<typeof feedItemSchema>;
