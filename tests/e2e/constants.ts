/** Accounts the e2e server starts with (tests/e2e/prepare.ts seeds them before the server starts). */
export const E2E_ADMIN = { email: "admin@example.com", password: "e2e owner pass phrase 42" };
export const E2E_MODERATOR = { email: "moderator@example.com", password: "e2e moderating phrase 42" };
export const E2E_USER = { email: "reader@example.com", password: "e2e plain visitor phrase 42" };
