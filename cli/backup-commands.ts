import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { createBackup } from "~/server/backup/backup.server";
import { restoreBackup } from "~/server/backup/restore.server";
import type { Database } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import type { Storage } from "~/server/storage.server";
import type { CliIo } from "./commands";

/** Commands that manage migrations themselves: a backup must not change the database it copies. */
export const BACKUP_COMMANDS = new Set(["backup", "restore"]);

export const BACKUP_USAGE = `  backup <file>                  Write the database and every stored file to one archive (.tar.gz).
  restore <file> [--force]       Check an archive, then load it into an empty database and storage
                                 (--force replaces what they hold). Older backups are migrated.`;

const LABELS = { database: "Database", files: "Files", verify: "Checking", restore: "Restoring" } as const;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One bar per phase on a terminal; nothing when output goes to a file or a pipe. */
function progressBar(enabled: boolean) {
  let bar: cliProgress.SingleBar | undefined;
  let phase: string | undefined;
  return {
    update(next: keyof typeof LABELS, done: number, total: number) {
      if (!enabled) return;
      if (phase !== next) {
        bar?.stop();
        phase = next;
        bar = new cliProgress.SingleBar(
          { format: `${LABELS[next].padEnd(9)} |{bar}| {percentage}% {value}/{total}`, hideCursor: true, stream: process.stderr },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.max(total, 1), 0);
      }
      bar?.setTotal(Math.max(total, 1));
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

export interface BackupCliContext {
  database: Database;
  storage: Storage;
  io: CliIo;
  progress?: boolean;
}

export async function runBackupCli(argv: string[], ctx: BackupCliContext): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: "boolean" } } });
  const [command, file] = positionals;
  if (!file) throw new ValidationError(`Missing the archive file name: npm run cli -- ${command} <file>`);
  const bar = progressBar(ctx.progress ?? false);
  try {
    if (command === "backup") {
      const summary = await createBackup({
        database: ctx.database,
        storage: ctx.storage,
        file,
        onProgress: (p) => bar.update(p.phase, p.done, p.total),
      });
      bar.stop();
      ctx.io.out(
        `Backup written to ${summary.file} (${megabytes(summary.bytes)}): ${summary.rows} rows in ${summary.tables} tables, ` +
          `${summary.files} files (${megabytes(summary.fileBytes)}), schema ${summary.manifest.database.migration.tag}.`,
      );
      if (summary.skippedFiles.length > 0)
        ctx.io.out(`Skipped ${summary.skippedFiles.length} files deleted while the backup ran: ${summary.skippedFiles.join(", ")}`);
      return;
    }
    if (command === "restore") {
      const summary = await restoreBackup({
        database: ctx.database,
        storage: ctx.storage,
        file,
        force: values.force ?? false,
        onProgress: (p) => bar.update(p.phase, p.done, p.total),
      });
      bar.stop();
      ctx.io.out(
        `Restored ${file} (made ${summary.manifest.createdAt} by version ${summary.manifest.app.version} on ${summary.manifest.database.kind}): ` +
          `${summary.rows} rows in ${summary.tables} tables, ${summary.files} files.`,
      );
      if (summary.migratedFrom) ctx.io.out(`Migrated the restored data from schema ${summary.migratedFrom} to ${summary.migration}.`);
      return;
    }
    throw new ValidationError(`Unknown command '${command}'.`);
  } finally {
    bar.stop();
  }
}
