import { z } from "zod";

/** Addresses of the files made from the favicon image when the settings were saved (site-icons.server.ts). */
export const siteIconsSchema = z.object({
  /** The uploaded image they were made from. */
  source: z.string(),
  ico: z.string(),
  png32: z.string(),
  png48: z.string(),
  appleTouch: z.string(),
  png192: z.string(),
  png512: z.string(),
});
export type SiteIcons = z.output<typeof siteIconsSchema>;

/** The top bar's logo mark, made from the uploaded logo when the settings were saved. */
export const logoMarkSchema = z.object({
  source: z.string(),
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type LogoMark = z.output<typeof logoMarkSchema>;
