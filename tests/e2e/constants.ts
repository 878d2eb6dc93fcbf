/** Accounts the e2e server starts with (tests/e2e/prepare.ts seeds them before the server starts). */
export const E2E_ADMIN = { email: "admin@example.com", password: "e2e owner pass phrase 42" };
export const E2E_MODERATOR = { email: "moderator@example.com", password: "e2e moderating phrase 42" };
export const E2E_USER = { email: "reader@example.com", password: "e2e plain visitor phrase 42" };

/**
 * Tags a test whose subject is the same on every screen (an empty state, a status code, a permission):
 * the phone project (playwright.config.ts) leaves it out, so phones run what a phone changes.
 */
export const SAME_ON_PHONES = "@same-on-phones";
