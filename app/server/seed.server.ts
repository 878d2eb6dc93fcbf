import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { bumpContentVersion } from "./content-version.server";
import type { Db } from "./db/client.server";
import { account, appSettings, blogPosts, projects, user, userRoles } from "./db/schema.server";
import { DEMO_POSTS, DEMO_PROJECTS } from "./demo-content.server";
import type { Env } from "./env.server";
import { logger } from "./logger.server";
import { accountEmailSchema } from "~/lib/email";
import { passwordProblem } from "~/lib/password-policy";
import { generatePassword, hashPassword } from "./password.server";
import { ValidationError } from "./errors.server";

const SEEDED_KEY = "seeded_at";
const DEFAULT_ADMIN_EMAIL = "admin@example.com";

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  /** Set only when the password was generated here (not given through the environment). */
  generatedPassword?: string;
}

/**
 * First start on an empty database: a first admin, and demo content unless SEED_DEMO_CONTENT=false.
 * Everything is written in one transaction with a marker, so a crash mid-way seeds again next time
 * and a later start changes nothing.
 */
export async function seedIfEmpty(
  db: Db,
  env: Pick<Env, "INITIAL_ADMIN_EMAIL" | "INITIAL_ADMIN_PASSWORD" | "SEED_DEMO_CONTENT" | "dataDir">,
): Promise<SeedResult> {
  const [marker] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SEEDED_KEY));
  if (marker) return { seeded: false };

  const [{ n: userCount } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(user);
  const parsedEmail = accountEmailSchema.safeParse(env.INITIAL_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL);
  if (!parsedEmail.success)
    throw new ValidationError(`INITIAL_ADMIN_EMAIL: ${parsedEmail.error.issues[0]?.message ?? "Invalid email address"}`);
  const adminEmail = parsedEmail.data;
  const generatedPassword = env.INITIAL_ADMIN_PASSWORD ? undefined : generatePassword();
  const password = env.INITIAL_ADMIN_PASSWORD ?? generatedPassword ?? "";
  const problem = passwordProblem(password, adminEmail);
  if (problem) throw new ValidationError(`INITIAL_ADMIN_PASSWORD: ${problem}`);
  const passwordHash = userCount === 0 ? await hashPassword(password) : "";

  if (userCount === 0 && generatedPassword) writeInitialAdminFile(env.dataDir, adminEmail, generatedPassword);

  let adminId: string | null = null;
  let seededNow = false;
  await db.transaction(async (tx) => {
    // Another instance may have seeded meanwhile; the marker insert decides who wins.
    const inserted = await tx
      .insert(appSettings)
      .values({ key: SEEDED_KEY, value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appSettings.key });
    if (inserted.length === 0) return;
    seededNow = true;

    if (userCount === 0) {
      adminId = randomUUID();
      await tx.insert(user).values({ id: adminId, email: adminEmail, name: "Administrator", emailVerified: true });
      await tx
        .insert(account)
        .values({ id: randomUUID(), accountId: adminId, providerId: "credential", userId: adminId, password: passwordHash });
      await tx.insert(userRoles).values({ userId: adminId, role: "admin" });
    }
    if (env.SEED_DEMO_CONTENT) {
      const now = Date.now();
      for (const post of DEMO_POSTS) {
        const at = new Date(now - post.daysAgo * 86_400_000);
        await tx.insert(blogPosts).values({
          title: post.title,
          slug: post.slug,
          category: post.category,
          excerpt: post.excerpt,
          featuredImageUrl: post.featuredImageUrl ?? null,
          featuredImageAlt: post.featuredImageAlt ?? null,
          content: post.content,
          published: post.published,
          featured: post.featured,
          authorId: adminId,
          publishedAt: post.published ? at : null,
          createdAt: at,
          updatedAt: at,
        });
      }
      await tx.insert(projects).values(DEMO_PROJECTS.map((p, i) => ({ ...p, displayOrder: i + 1 })));
    }
    await bumpContentVersion(tx);
  });

  if (!seededNow) return { seeded: false };
  if (adminId === null) return { seeded: true };
  if (generatedPassword) announceGeneratedPassword(env.dataDir, adminEmail, generatedPassword);
  logger.info({ adminEmail, demoContent: env.SEED_DEMO_CONTENT }, "seeded a new database");
  if (!env.INITIAL_ADMIN_EMAIL) {
    logger.info(
      { adminEmail },
      "the admin signs in as this placeholder address: set your own with INITIAL_ADMIN_EMAIL before the first start, or later with `npm run cli -- set-email OLD NEW`",
    );
  }
  return { seeded: true, adminEmail, generatedPassword };
}

function initialAdminPath(dataDir: string) {
  return path.join(dataDir, "initial-admin.txt");
}

function writeInitialAdminFile(dataDir: string, email: string, password: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = initialAdminPath(dataDir);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
}

function announceGeneratedPassword(dataDir: string, email: string, password: string) {
  // Printed once, to the console rather than the JSON log, so it is easy to read at first start.
  console.log(
    [
      "",
      "==================================================================",
      " First admin account created",
      `   email:    ${email}`,
      `   password: ${password}`,
      ` Also saved to ${initialAdminPath(dataDir)} (readable only by you).`,
      " Change it with: npm run cli -- set-password " + email,
      "==================================================================",
      "",
    ].join("\n"),
  );
}
