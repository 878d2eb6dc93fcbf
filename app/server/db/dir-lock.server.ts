import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    public readonly pid: number,
    dir: string,
  ) {
    super(
      `The data directory ${dir} is in use by process ${pid} (is the site running?). ` +
        `Stop it first: the embedded database can only be opened by one process at a time.`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes an exclusive pid lock on a directory; a lock left by a dead process is taken over. */
export function acquireDirLock(dir: string): () => void {
  const lockPath = path.join(dir, "app.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx", mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(pid, dir);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
