import { parseArgs } from "node:util";
import { resetTwoFactor } from "~/features/auth/account-recovery.server";
import { createUser, grantRole, listUsers, revokeRole, setEmail, setPassword } from "~/features/users/users.server";
import { isStoredRole, ROLE_LABELS, STORED_ROLES, type StoredRole } from "~/lib/roles";
import type { Db } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { generatePassword } from "~/server/password.server";
import { runBackupCommand } from "./backup-commands";
import { runDoctor } from "./doctor";
import { runImportCommand } from "./import-commands";
import type { CliContext, CliIo } from "./io";

const STORED_ROLE_CHOICES = STORED_ROLES.join("|");

/** One CLI command: its name, its lines in the help, and what it does. */
export interface CliCommand {
  name: string;
  /** Its lines of the help text, as printed (two-space indent, description from column 34). */
  usage: string;
  /**
   * Whether the database is migrated before the command runs. Backup and restore manage migrations
   * themselves: a backup must not change the database it copies, a restore migrates what it loads.
   */
  migrates: boolean;
  standalone?: false;
  run: (argv: string[], ctx: CliContext) => Promise<void>;
}

/** A command that opens nothing first (the doctor reports a database it cannot open instead of failing on it). */
export interface StandaloneCliCommand {
  name: string;
  usage: string;
  standalone: true;
  run: (argv: string[], io: CliIo) => Promise<void>;
}

/** The options every account command accepts (parseArgs refuses any other). */
function accountArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean" },
    },
  });
}

function parseRole(value: string | undefined): StoredRole {
  if (value && isStoredRole(value)) return value;
  throw new ValidationError(`Unknown role '${value ?? ""}': use ${STORED_ROLES.join(" or ")}`);
}

function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new ValidationError(`Missing ${what}.\n\n${USAGE}`);
  return value;
}

async function passwordFrom(values: { password?: string; "password-stdin"?: boolean }, io: CliIo) {
  if (values.password !== undefined) return { password: values.password, generated: false };
  if (values["password-stdin"]) return { password: (await io.readStdin()).replace(/\r?\n$/, ""), generated: false };
  return { password: generatePassword(), generated: true };
}

/** grant and revoke: `<email> <role>`, then one line saying what changed. */
function roleCommand(
  name: string,
  usage: string,
  change: (db: Db, email: string, role: StoredRole) => Promise<unknown>,
  done: (role: StoredRole, email: string) => string,
): CliCommand {
  return {
    name,
    usage,
    migrates: true,
    async run(argv, { database, io }) {
      const { positionals } = accountArgs(argv);
      const email = requireArg(positionals[1], "email");
      const role = parseRole(positionals[2]);
      await change(database.db, email, role);
      io.out(done(role, email.trim().toLowerCase()));
    },
  };
}

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly (CliCommand | StandaloneCliCommand)[] = [
  {
    name: "create-user",
    usage: `  create-user <email> [--name NAME] [--role ${STORED_ROLE_CHOICES}] [--password PASSWORD | --password-stdin]
                                 Create a user. Without a password one is generated and printed.`,
    migrates: true,
    async run(argv, { database, io }) {
      const { values, positionals } = accountArgs(argv);
      const email = requireArg(positionals[1], "email");
      const roles = values.role ? [parseRole(values.role)] : [];
      const { password, generated } = await passwordFrom(values, io);
      const created = await createUser(database.db, { email, password, name: values.name, roles });
      io.out(`Created user ${created.email}${roles.length ? ` (${roles.join(", ")})` : ""}.`);
      if (generated) io.out(`Password: ${password}`);
    },
  },
  {
    name: "list-users",
    usage: "  list-users                     List users with their roles.",
    migrates: true,
    async run(argv, { database, io }) {
      accountArgs(argv);
      const users = await listUsers(database.db);
      if (users.length === 0) {
        io.out("No users.");
        return;
      }
      for (const u of users) io.out(`${u.email}\t${ROLE_LABELS[u.role]}\t${u.createdAt.toISOString()}`);
    },
  },
  roleCommand(
    "grant",
    `  grant <email> <${STORED_ROLE_CHOICES}>
                                 Give a user a role.`,
    grantRole,
    (role, email) => `Granted ${role} to ${email}.`,
  ),
  roleCommand(
    "revoke",
    `  revoke <email> <${STORED_ROLE_CHOICES}>
                                 Take a role away (the last administrator keeps theirs).`,
    revokeRole,
    (role, email) => `Revoked ${role} from ${email}.`,
  ),
  {
    name: "set-password",
    usage: `  set-password <email> [--password PASSWORD | --password-stdin]
                                 Set a user's password and end their sessions.`,
    migrates: true,
    async run(argv, { database, io }) {
      const { values, positionals } = accountArgs(argv);
      const email = requireArg(positionals[1], "email");
      const { password, generated } = await passwordFrom(values, io);
      await setPassword(database.db, email, password);
      io.out(`Password updated for ${email.trim().toLowerCase()}.`);
      if (generated) io.out(`Password: ${password}`);
    },
  },
  {
    name: "set-email",
    usage: `  set-email <old email> <new email>
                                 Change a user's sign-in email (the old address gets a notice).`,
    migrates: true,
    async run(argv, { database, io }) {
      const { positionals } = accountArgs(argv);
      const { email } = await setEmail(database.db, requireArg(positionals[1], "old email"), requireArg(positionals[2], "new email"));
      io.out(`Sign-in email changed to ${email}.`);
    },
  },
  {
    name: "reset-2fa",
    usage: `  reset-2fa <email>              Account recovery: remove a user's two-factor authentication
                                 (authenticator app and recovery codes); the password alone signs in.`,
    migrates: true,
    async run(argv, { database, io }) {
      const { positionals } = accountArgs(argv);
      const { email, removed } = await resetTwoFactor(database.db, requireArg(positionals[1], "email"));
      io.out(removed ? `Two-factor authentication removed for ${email}.` : `${email} had no two-factor authentication; nothing to remove.`);
    },
  },
  {
    name: "backup",
    usage: "  backup <file>                  Write the database and every stored file to one archive (.tar.gz).",
    migrates: false,
    run: runBackupCommand,
  },
  {
    name: "restore",
    usage: `  restore <file> [--force]       Check an archive, then load it into an empty database and storage
                                 (--force replaces what they hold). Older backups are migrated.`,
    migrates: false,
    run: runBackupCommand,
  },
  {
    name: "import-supabase",
    usage: `  import-supabase <dir> [--as EMAIL]
                                 Import the old site's exports (blog_posts, blog_media, projects, user_roles
                                 as .csv or .json); images of its blog-images bucket are copied here.`,
    migrates: true,
    run: runImportCommand,
  },
  {
    name: "import-ghost",
    usage: `  import-ghost <export.json> [--map tags.json] [--tag TAG=CATEGORY]... [--default-category CATEGORY]
               [--ghost-url URL] [--as EMAIL]
                                 Import a Ghost export's posts; tags become categories by the map.
                                 Both can run again: changed rows are updated, the rest skipped.`,
    migrates: true,
    run: runImportCommand,
  },
  {
    name: "import-wordpress-comments",
    usage: `  import-wordpress-comments <export.xml>
                                 Import the comments of a WordPress export (Tools → Export) onto the posts
                                 with the same slug; approved and pending ones, once (a re-run skips them).`,
    migrates: true,
    run: runImportCommand,
  },
  {
    name: "doctor",
    usage: `  doctor                         Check the configuration, database and migrations, site address, storage,
                                 email, clock and free disk space, and say what to fix (exit 1 if anything must be).`,
    standalone: true,
    run: (_argv, io) => runDoctor(io),
  },
];

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map((command) => command.usage).join("\n")}
  help                           Show this help.`;

const HELP = new Set([undefined, "help", "--help"]);

/**
 * The command argv names, or null for the help (which needs no database). An unknown name is refused
 * with the help.
 */
export function findCommand(argv: readonly string[]): CliCommand | StandaloneCliCommand | null {
  const name = argv[0];
  if (HELP.has(name)) return null;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new ValidationError(`Unknown command '${name}'.\n\n${USAGE}`);
  return command;
}

/**
 * Runs one CLI command against an open database, migrated when the command needs it (cli/index.ts
 * does that). Throws AppError subclasses for bad input.
 */
export async function runCli(argv: string[], ctx: CliContext): Promise<void> {
  const command = findCommand(argv);
  if (!command) ctx.io.out(USAGE);
  else if (command.standalone) await command.run(argv, ctx.io);
  else await command.run(argv, ctx);
}
