import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { createBackup } from "~/server/backup/backup.server";
import { restoreBackup } from "~/server/backup/restore.server";
import { ValidationError } from "~/server/errors.server";
import { getStorage } from "~/server/storage.server";
import type { CliContext } from "./io";

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

/** backup <file> and restore <file> [--force]. */
export async function runBackupCommand(argv: string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: "boolean" } } });
  const [command, file] = positionals;
  if (!file) throw new ValidationError(`Missing the archive file name: npm run cli -- ${command} <file>`);
  const bar = progressBar(ctx.progress ?? false);
  const storage = ctx.storage ?? getStorage();
  try {
    if (command === "backup") {
      const summary = await createBackup({
        database: ctx.database,
        storage,
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
        storage,
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
