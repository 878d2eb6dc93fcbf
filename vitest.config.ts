import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

const shared = {
  environment: "node",
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: "forks",
  maxWorkers: 2,
} as const;

// Two projects: `unit` (tests beside the code, no build needed) and `integration` (tests/integration,
// through the production build: run `npm run build` first). `vitest run` runs both.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    ...shared,
    // Root only: one PostgreSQL cluster for the whole run; its URL is provided to both projects.
    globalSetup: ["./tests/setup/global-postgres.ts"],
    projects: [
      {
        plugins: [tsconfigPaths()],
        test: {
          ...shared,
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "server/**/*.test.ts", "tests/lint/**/*.test.ts"],
        },
      },
      { plugins: [tsconfigPaths()], test: { ...shared, name: "integration", include: ["tests/integration/**/*.test.ts"] } },
    ],
  },
});
