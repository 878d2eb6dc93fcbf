import { parseArgs } from "node:util";
import { createUser, grantRole, listUsers, resetTwoFactor, revokeRole, setEmail, setPassword } from "~/features/users/users.server";
import { isStoredRole, ROLE_LABELS, STORED_ROLES, type StoredRole } from "~/lib/roles";
import type { Db } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { generatePassword } from "~/server/password.server";
import { BACKUP_USAGE } from "./backup-commands";
import { IMPORT_COMMANDS, IMPORT_USAGE, runImportCli } from "./import-commands";

const STORED_ROLE_CHOICES = STORED_ROLES.join("|");

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-user <email> [--name NAME] [--role ${STORED_ROLE_CHOICES}] [--password PASSWORD | --password-stdin]
                                 Create a user. Without a password one is generated and printed.
  list-users                     List users with their roles.
  grant <email> <${STORED_ROLE_CHOICES}>
                                 Give a user a role.
  revoke <email> <${STORED_ROLE_CHOICES}>
                                 Take a role away (the last administrator keeps theirs).
  set-password <email> [--password PASSWORD | --password-stdin]
                                 Set a user's password and end their sessions.
  set-email <old email> <new email>
                                 Change a user's sign-in email (the old address gets a notice).
  reset-2fa <email>              Account recovery: remove a user's two-factor authentication
                                 (authenticator app and recovery codes); the password alone signs in.
${BACKUP_USAGE}
${IMPORT_USAGE}
  help                           Show this help.`;

export interface CliIo {
  out: (line: string) => void;
  readStdin: () => Promise<string>;
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

/** Runs one CLI command against an open database. Throws AppError subclasses for bad input. */
export async function runCli(argv: string[], db: Db, io: CliIo): Promise<void> {
  if (IMPORT_COMMANDS.has(argv[0] ?? "")) return runImportCli(argv, db, io);
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean" },
    },
  });
  const [command, ...rest] = positionals;
  switch (command) {
    case "create-user": {
      const email = requireArg(rest[0], "email");
      const roles = values.role ? [parseRole(values.role)] : [];
      const { password, generated } = await passwordFrom(values, io);
      const created = await createUser(db, { email, password, name: values.name, roles });
      io.out(`Created user ${created.email}${roles.length ? ` (${roles.join(", ")})` : ""}.`);
      if (generated) io.out(`Password: ${password}`);
      return;
    }
    case "list-users": {
      const users = await listUsers(db);
      if (users.length === 0) {
        io.out("No users.");
        return;
      }
      for (const u of users) io.out(`${u.email}\t${ROLE_LABELS[u.role]}\t${u.createdAt.toISOString()}`);
      return;
    }
    case "grant": {
      const email = requireArg(rest[0], "email");
      const role = parseRole(rest[1]);
      await grantRole(db, email, role);
      io.out(`Granted ${role} to ${email.trim().toLowerCase()}.`);
      return;
    }
    case "revoke": {
      const email = requireArg(rest[0], "email");
      const role = parseRole(rest[1]);
      await revokeRole(db, email, role);
      io.out(`Revoked ${role} from ${email.trim().toLowerCase()}.`);
      return;
    }
    case "set-email": {
      const { email } = await setEmail(db, requireArg(rest[0], "old email"), requireArg(rest[1], "new email"));
      io.out(`Sign-in email changed to ${email}.`);
      return;
    }
    case "set-password": {
      const email = requireArg(rest[0], "email");
      const { password, generated } = await passwordFrom(values, io);
      await setPassword(db, email, password);
      io.out(`Password updated for ${email.trim().toLowerCase()}.`);
      if (generated) io.out(`Password: ${password}`);
      return;
    }
    case "reset-2fa": {
      const { email, removed } = await resetTwoFactor(db, requireArg(rest[0], "email"));
      io.out(removed ? `Two-factor authentication removed for ${email}.` : `${email} had no two-factor authentication; nothing to remove.`);
      return;
    }
    case undefined:
    case "help":
    case "--help":
      io.out(USAGE);
      return;
    default:
      throw new ValidationError(`Unknown command '${command}'.\n\n${USAGE}`);
  }
}
