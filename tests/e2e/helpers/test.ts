import { expect, test as base } from "@playwright/test";
import { startE2eServer, type E2eServer } from "./server";

export { expect };
export type { Locator, Page, TestInfo } from "@playwright/test";

/**
 * The `test` every spec uses. Each worker starts its own production server (helpers/server.ts) and
 * points `baseURL` at it, so workers run in parallel on separate data. It fails when any page breaks the Content-Security-Policy — a
 * `securitypolicyviolation` event in a page, or a CSP error in the console (which also reports what
 * the event cannot, e.g. a blocked worker or frame).
 */
export const test = base.extend<object, { e2eServer: E2eServer }>({
  e2eServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none
    async ({}, run, workerInfo) => {
      const server = await startE2eServer(workerInfo.parallelIndex);
      process.env.E2E_MAIL_DIR = server.mailDir;
      await run(server);
      await server.stop();
    },
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ e2eServer }, run) => run(e2eServer.url),
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
