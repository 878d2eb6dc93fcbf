import { useSyncExternalStore } from "react";
import { deferred } from "./deferred";

/**
 * Toasts without sonner in every page's initial JavaScript (it stays within the public pages' budget): the toaster is mounted for
 * signed-in users (the admin area toasts often) and, on any other page, from its first toast on;
 * sonner's code loads then. Sonner shows a toast made before its toaster subscribed.
 */
const SonnerToaster = deferred(() => import("sonner").then((module) => module.Toaster));

let requested = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type ToastOptions = { description?: string };

function show(kind: "success" | "error" | "info", title: string, options?: ToastOptions): void {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  void import("sonner").then(({ toast }) => toast[kind](title, options));
}

/** The app's toasts (sonner's API, loaded on first use). */
export const toast = {
  success: (title: string, options?: ToastOptions) => show("success", title, options),
  error: (title: string, options?: ToastOptions) => show("error", title, options),
  info: (title: string, options?: ToastOptions) => show("info", title, options),
};

// Sonner's phone layout (full width) starts below 600 px: there toasts sit at the top, so they never cover a
// form's submit button, which on a phone is usually at the bottom of the screen.
const PHONE = "(max-width: 600px)";

function subscribePhone(listener: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/** The toaster: always for `always` (signed-in users), otherwise once a toast has been shown. */
export function Toaster({ always }: { always: boolean }) {
  const wanted = useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
  const phone = useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
  return always || wanted ? (
    <SonnerToaster visibleToasts={3} duration={4000} richColors closeButton position={phone ? "top-center" : "bottom-right"} />
  ) : null;
}
