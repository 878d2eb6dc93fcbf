/** The first admin the e2e server is seeded with (INITIAL_ADMIN_EMAIL / INITIAL_ADMIN_PASSWORD). */
export const E2E_ADMIN = { email: "admin@example.com", password: "e2e owner pass phrase 42" };
