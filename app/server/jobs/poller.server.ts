import { isDatabaseUnavailable } from "~/server/db/pg-errors.server";
import { logger } from "~/server/logger.server";

/**
 * The loop under every background worker: runs `round` now, then again `pollMs` after each round
 * ends; `nudge()` starts a round at once (or right after the one in progress); `stop()` asks the
 * round in progress to finish early (`halting`) and waits for it.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private stopping = false;

  constructor(
    private readonly name: string,
    private readonly pollMs: number,
    private readonly round: () => Promise<unknown>,
  ) {}

  /** True once stop() was called: a round should finish its current step and return. */
  get halting(): boolean {
    return this.stopping;
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    this.nudge();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round()
      .then(() => undefined)
      .catch((error: unknown) => {
        // While the database is away every round fails the same way: one line each, and the next round retries.
        if (isDatabaseUnavailable(error)) logger.warn({ worker: this.name }, "background round skipped: database unavailable");
        else logger.error({ err: error, worker: this.name }, "background round failed");
      })
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
          this.timer.unref();
        }
      });
  }
}
