// @vitest-environment jsdom
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { PLAIN_TOAST_ATTRIBUTE, showPlainToast } from "./plain-toast";

const toasts = () => [...document.querySelectorAll<HTMLElement>(`[${PLAIN_TOAST_ATTRIBUTE}]`)];

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

it("announces the title and description from one polite live region, like sonner's", () => {
  showPlainToast("error", "Error sending message", "There was a problem sending your message.");
  showPlainToast("error", "Verification required");
  const regions = document.querySelectorAll('section[aria-label="Notifications"]');
  expect(regions).toHaveLength(1);
  const region = regions[0];
  expect(region?.getAttribute("aria-live")).toBe("polite");
  expect(region?.getAttribute("aria-relevant")).toBe("additions text");
  const [newest, first] = toasts();
  expect(newest?.textContent).toBe("Verification required");
  expect(first?.dataset.type).toBe("error");
  expect(first?.querySelector("[data-title]")?.textContent).toBe("Error sending message");
  expect(first?.querySelector("[data-description]")?.textContent).toBe("There was a problem sending your message.");
  expect(region?.contains(first ?? null)).toBe(true);
});

it("goes after 4 seconds, keeps three at most, and can be closed", () => {
  for (const title of ["one", "two", "three", "four"]) showPlainToast("info", title);
  expect(toasts().map((toast) => toast.querySelector("[data-title]")?.textContent)).toEqual(["four", "three", "two"]);
  toasts()[0]?.querySelector<HTMLButtonElement>('button[aria-label="Close toast"]')?.click();
  expect(toasts()).toHaveLength(2);
  vi.advanceTimersByTime(3999);
  expect(toasts()).toHaveLength(2);
  vi.advanceTimersByTime(1);
  expect(toasts()).toHaveLength(0);
});

it("waits while the visitor has it focused", () => {
  showPlainToast("success", "Saved");
  const [toast] = toasts();
  toast?.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
  vi.advanceTimersByTime(10_000);
  expect(toasts()).toHaveLength(1);
  toast?.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
  vi.advanceTimersByTime(4000);
  expect(toasts()).toHaveLength(0);
});
