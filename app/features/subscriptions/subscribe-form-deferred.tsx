import { deferred } from "~/components/deferred";

/** The Subscribe form of the footer and blog pages, without zod, Conform and the widget in the initial JavaScript. */
export const SubscribeForm = deferred(() => import("./subscribe-form").then((module) => module.SubscribeForm));
