import { useCallback, useEffect, useRef, useState } from "react";

/** Autosave runs this long after the last keystroke (the issue asks for "within 3 s"). */
export const AUTOSAVE_DELAY_MS = 1_500;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
export const AUTOSAVE_URL = "/api/posts/autosave";

export type AutosaveStatus = "idle" | "saving" | "saved" | "retrying";

export interface AutosaveFields {
  title: string;
  excerpt: string;
  content: string;
  featuredImageUrl: string;
  /** Every other field of the form, as JSON (autosave-details.ts). */
  details: string;
  featuredImageAlt: string;
}

/** A page editor's text (pages have no excerpt, featured image or other fields). */
export interface PageAutosaveFields {
  title: string;
  content: string;
}

interface Options {
  /** Where the editor autosaves (the posts' endpoint unless another editor names its own). */
  url?: string;
  /** Where the text belongs: a post (edit mode) or a new post in a category (a page editor sends its page's id here). */
  postId: string | undefined;
  /** A new post's category; empty for an editor without one. */
  category: string;
  baseVersion: number | undefined;
  fields: AutosaveFields | PageAutosaveFields;
  /** Off while the post itself is being saved (its save clears the autosave). */
  enabled: boolean;
}

function formOf({ postId, category, baseVersion, fields }: Omit<Options, "enabled" | "url">): FormData {
  const body = new FormData();
  if (postId) body.set("postId", postId);
  if (category) body.set("category", category);
  if (baseVersion) body.set("baseVersion", String(baseVersion));
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return body;
}

/**
 * Saves the editor's text to the server shortly after typing stops and when the tab is hidden
 * (sendBeacon, which survives the tab closing), retrying with backoff while the server cannot be
 * reached. Nothing is sent until the text differs from what the editor opened with.
 */
export function useAutosave(options: Options): { status: AutosaveStatus; markSaved: (fields: Options["fields"]) => void } {
  const [status, setStatus] = useState<AutosaveStatus>("idle");
  const latest = useRef(options);
  latest.current = options;
  const lastSaved = useRef(JSON.stringify(options.fields));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const failures = useRef(0);
  const serialized = JSON.stringify(options.fields);

  const save = useCallback(async () => {
    const current = latest.current;
    const snapshot = JSON.stringify(current.fields);
    if (!current.enabled || snapshot === lastSaved.current) return;
    setStatus("saving");
    try {
      const response = await fetch(current.url ?? AUTOSAVE_URL, { method: "POST", body: formOf(current), keepalive: true });
      if (!response.ok) throw new Error(`autosave answered ${response.status}`);
      lastSaved.current = snapshot;
      failures.current = 0;
      // Typing went on while this request was out: that text is saved by the next round.
      setStatus(JSON.stringify(latest.current.fields) === snapshot ? "saved" : "saving");
    } catch {
      failures.current += 1;
      setStatus("retrying");
      const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures.current - 1));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), delay);
    }
  }, []);

  useEffect(() => {
    if (!options.enabled || serialized === lastSaved.current) return;
    // A retry already waits for its backoff; typing does not make it hammer the server.
    if (failures.current > 0) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
  }, [serialized, options.enabled, save]);

  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState !== "hidden") return;
      const current = latest.current;
      const snapshot = JSON.stringify(current.fields);
      if (!current.enabled || snapshot === lastSaved.current) return;
      if (navigator.sendBeacon(current.url ?? AUTOSAVE_URL, formOf(current))) {
        lastSaved.current = snapshot;
        clearTimeout(timer.current);
        setStatus("saved");
      }
    };
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      document.removeEventListener("visibilitychange", onHidden);
      clearTimeout(timer.current);
    };
  }, []);

  useEffect(() => {
    if (!options.enabled) clearTimeout(timer.current);
  }, [options.enabled]);

  /** The text now matches the server (restored, discarded or the post was saved): nothing to send. */
  const markSaved = useCallback((fields: Options["fields"]) => {
    lastSaved.current = JSON.stringify(fields);
    clearTimeout(timer.current);
    failures.current = 0;
    setStatus("idle");
  }, []);

  return { status, markSaved };
}
