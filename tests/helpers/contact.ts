import type { AddressInfo } from "node:net";
import { createChallenge, solveChallenge } from "altcha-lib";
import { SMTPServer } from "smtp-server";
import type { Db } from "~/server/db/client.server";
import { getAppSecret } from "~/server/secret.server";

/**
 * A valid, single-use ALTCHA token signed with the app's secret — an easy challenge, so that
 * hundreds can be solved quickly. The server's check (signature, expiry, single use) is the real one.
 */
export async function easyVerificationToken(db: Db): Promise<string> {
  return easyVerificationTokenFor(await getAppSecret(db));
}

/** The same, for a server whose signing secret (AUTH_SECRET) the test set. */
export async function easyVerificationTokenFor(secret: string): Promise<string> {
  const challenge = await createChallenge({ hmacKey: secret, maxNumber: 20, expires: new Date(Date.now() + 600_000) });
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error("could not solve the challenge");
  return Buffer.from(
    JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution.number, salt: challenge.salt, signature: challenge.signature }),
  ).toString("base64");
}

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export type SmtpMode = "accept" | "reject" | "hang";

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** accept: store and answer 250; reject: answer 451 to DATA; hang: take the data, never answer. */
  mode: SmtpMode;
  /** Resolves when the next DATA command arrives (also in hang mode). */
  nextData: () => Promise<void>;
  close: () => Promise<void>;
}

/** A real SMTP server (smtp-server) on localhost, recording what it accepts. */
export async function startSmtpServer(port = 0, mode: SmtpMode = "accept"): Promise<TestSmtpServer> {
  const waiting: Array<() => void> = [];
  const state: TestSmtpServer = {
    port: 0,
    url: "",
    received: [],
    mode,
    nextData: () => new Promise<void>((resolve) => waiting.push(resolve)),
    close: async () => {
      server.close();
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      for (const resolve of waiting.splice(0)) resolve();
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (state.mode === "hang") return;
        if (state.mode === "reject") {
          callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 }));
          return;
        }
        state.received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  state.port = address.port;
  state.url = `smtp://127.0.0.1:${address.port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Drop connections left hanging so close() completes.
      for (const connection of server.connections) connection.close();
    });
  return state;
}

/** Contact message ids quoted in received emails ("Message id: …"). */
export function deliveredIds(received: ReceivedMail[]): string[] {
  return received.flatMap((m) => [...m.raw.matchAll(/Message id: ([0-9a-f-]{36})/g)].map((match) => match[1] ?? ""));
}

export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
