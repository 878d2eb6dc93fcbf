import type { Database } from "~/server/db/client.server";
import type { Storage } from "~/server/storage.server";

/** Where a command writes its lines and reads a password from (the terminal, or a test's arrays). */
export interface CliIo {
  out: (line: string) => void;
  readStdin: () => Promise<string>;
}

/** What a command runs against: an open database, its output, and for backups the file storage. */
export interface CliContext {
  database: Database;
  io: CliIo;
  /** The stored files (backup and restore); the configured storage when not given. */
  storage?: Storage;
  /** Progress bars on standard error (a terminal). */
  progress?: boolean;
}
