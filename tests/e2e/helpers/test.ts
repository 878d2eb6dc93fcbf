import { expect, test as base } from "@playwright/test";

export { expect };
export type { Locator, Page, TestInfo } from "@playwright/test";

/**
 * The `test` every spec uses: it fails when any page breaks the Content-Security-Policy — a
 * `securitypolicyviolation` event in a page, or a CSP error in the console (which also reports what
 * the event cannot, e.g. a blocked worker or frame).
 */
export const test = base.extend({
  context: async ({ context }, run) => {
    const violations: string[] = [];
    await context.exposeBinding("__reportCspViolation", ({ page }, report: string) => {
      violations.push(`${page.url()}: ${report}`);
    });
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const report = `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`;
        const send: unknown = Reflect.get(window, "__reportCspViolation");
        if (typeof send === "function") void send(report);
      });
    });
    context.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${message.page()?.url() ?? "?"}: ${message.text()}`);
    });
    await run(context);
    expect(violations, "Content-Security-Policy violations").toEqual([]);
  },
});
