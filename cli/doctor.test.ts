import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { getEnv, parseEnv, resetEnvForTests } from "~/server/env.server";
import { createLocalStorage, type Storage } from "~/server/storage.server";
import { describeEachDatabase } from "../tests/helpers/databases";
import { tempDir } from "../tests/helpers/temp-dir";
import { useSmtpServer } from "../tests/helpers/smtp-suite";
import { runDoctor, runDoctorChecks, type DoctorDeps, type DoctorFinding } from "./doctor";

const dir = tempDir("doctor-");

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 1;
}

const byCheck = (findings: DoctorFinding[], check: string) => findings.filter((f) => f.check === check);

describeEachDatabase("cli doctor", (ctx) => {
  useSmtpServer();
  const deps = (overrides: Partial<DoctorDeps> = {}): DoctorDeps => ({
    env: getEnv,
    // The suite owns its database: the doctor's close must not end it.
    openDatabase: async () => ({ ...ctx.database, close: async () => undefined }),
    storage: () => createLocalStorage(path.join(dir, ctx.kind)),
    ...overrides,
  });

  it("reports a working site: every check ok but the unset site address, and says so", async () => {
    const findings = await runDoctorChecks(deps());
    expect(byCheck(findings, "Database")[0]?.level).toBe("ok");
    expect(byCheck(findings, "Migrations")[0]).toMatchObject({ level: "ok", found: expect.stringMatching(/^all \d+ applied$/) });
    expect(byCheck(findings, "Site address")[0]).toMatchObject({
      level: "warn",
      found: expect.stringMatching(/^No site address is set: .*421 Misdirected Request/),
      fix: expect.stringContaining("PUBLIC_URL"),
    });
    expect(byCheck(findings, "Email")[0]).toMatchObject({ level: "ok", found: "SMTP_URL accepts a connection and the sign-in" });
    expect(byCheck(findings, "Clock")[0]?.level).toBe("ok");
    expect(byCheck(findings, "Storage")[0]).toMatchObject({ level: "ok", found: "local files: write, read and delete work" });
    expect(byCheck(findings, "Disk")[0]?.level).not.toBe("fail");
    // The probe file is gone again.
    expect(fs.readdirSync(path.join(dir, ctx.kind, "doctor"))).toEqual([]);
    const lines: string[] = [];
    await runDoctor({ out: (line) => lines.push(line), readStdin: async () => "" }, deps());
    expect(lines).toContain("ok    Database: embedded database in " + getEnv().dataDir + " answers");
    expect(lines.at(-1)).toMatch(/^Nothing broken; \d+ things? to look at\.$/);
  });

  it("removes its probe file when it cannot read it back", async () => {
    const root = path.join(dir, `${ctx.kind}-unreadable`);
    const unreadable: Storage = { ...createLocalStorage(root), get: () => Promise.reject(new Error("EIO: i/o error")) };
    const findings = await runDoctorChecks(deps({ storage: () => unreadable }));
    expect(byCheck(findings, "Storage")[0]).toMatchObject({ level: "fail", found: "local files: EIO: i/o error" });
    expect(fs.readdirSync(path.join(root, "doctor"))).toEqual([]);
  });

  it("names what must be fixed and fails: mail server away, storage refusing, database unreachable, bad configuration", async () => {
    const saved = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    resetEnvForTests();
    try {
      const broken: Storage = { ...createLocalStorage(dir), put: () => Promise.reject(new Error("EACCES: permission denied")) };
      const findings = await runDoctorChecks(deps({ storage: () => broken }));
      expect(byCheck(findings, "Email")[0]).toMatchObject({ level: "fail", fix: "Correct the Email settings in the admin." });
      expect(byCheck(findings, "Storage")[0]).toMatchObject({ level: "fail", found: "local files: EACCES: permission denied" });
      const lines: string[] = [];
      await expect(
        runDoctor({ out: (line) => lines.push(line), readStdin: async () => "" }, deps({ storage: () => broken })),
      ).rejects.toThrow(/^2 problems to fix, 1 to look at\.$/);
      expect(lines).toContain("      → Correct the Email settings in the admin.");
    } finally {
      process.env.SMTP_URL = saved;
      resetEnvForTests();
    }
    const away = await runDoctorChecks(deps({ openDatabase: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")) }));
    expect(byCheck(away, "Database")[0]).toMatchObject({ level: "fail", found: expect.stringContaining("ECONNREFUSED") });
    // Storage and disk are still checked without a database.
    expect(byCheck(away, "Storage")[0]?.level).toBe("ok");
    const fresh = await runDoctorChecks(deps({ openDatabase: () => openDatabase({ kind: "pglite-memory" }) }));
    expect(byCheck(fresh, "Migrations")[0]).toMatchObject({
      level: "warn",
      found: expect.stringMatching(/^(\d+) of \1 migrations not applied yet$/),
    });
    expect(byCheck(fresh, "Settings")[0]?.level).toBe("warn");
    expect(fresh.some((f) => f.level === "fail")).toBe(false);
    const misconfigured = await runDoctorChecks(deps({ env: () => parseEnv({ ...process.env, AUTH_SECRET: "short" }) }));
    expect(misconfigured).toEqual([
      expect.objectContaining({ level: "fail", check: "Configuration", found: expect.stringContaining("AUTH_SECRET") }),
    ]);
  });
});
