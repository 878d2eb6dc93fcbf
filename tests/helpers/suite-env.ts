import { afterAll, beforeAll } from "vitest";
import { resetEnvForTests } from "~/server/env.server";

/** Sets environment variables for the enclosing suite (before its tests) and puts the environment back after it. */
export function suiteEnv(values: Record<string, string>): void {
  const saved = { ...process.env };
  beforeAll(() => {
    Object.assign(process.env, values);
    resetEnvForTests();
  });
  afterAll(() => {
    process.env = saved;
    resetEnvForTests();
  });
}
