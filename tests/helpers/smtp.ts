import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message as the SMTP stand-in received it. */
export interface ReceivedMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  raw: string;
  /** When its data had arrived (Date.now()); the answer follows after `answerDelayMs`. */
  dataAt: number;
}

export type SmtpMode = "accept" | "reject" | "hang";

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** accept: store and answer 250; reject: answer 451 to DATA; hang: take the data, never answer. */
  mode: SmtpMode;
  /** A slow mail server: accepted messages are answered (and recorded) this long after their data (0: at once). */
  answerDelayMs: number;
  /** Resolves when the next DATA command arrives (also in hang mode). */
  nextData: () => Promise<void>;
  /** Messages whose data arrived in hang mode: taken, never answered (their senders are still waiting). */
  held: number;
  close: () => Promise<void>;
}

export interface SmtpServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  mode?: SmtpMode;
  /** Called for every accepted message, after it was added to `received`. */
  onMessage?: (mail: ReceivedMail) => void;
}

/** The SMTP stand-in of every test: a real SMTP server (smtp-server) on localhost, recording what it accepts. */
export async function startSmtpServer({ port = 0, mode = "accept", onMessage }: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const waiting: Array<() => void> = [];
  const state: TestSmtpServer = {
    port: 0,
    url: "",
    received: [],
    mode,
    answerDelayMs: 0,
    held: 0,
    nextData: () => new Promise<void>((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Drop connections left hanging so close() completes.
        for (const connection of server.connections) connection.close();
      }),
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
        if (state.mode === "hang") {
          state.held++;
          return;
        }
        if (state.mode === "reject") {
          callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 }));
          return;
        }
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
          dataAt: Date.now(),
        };
        const accept = () => {
          state.received.push(mail);
          onMessage?.(mail);
          callback();
        };
        if (state.answerDelayMs > 0) setTimeout(accept, state.answerDelayMs);
        else accept();
      });
    },
  });
  // A client killed mid-session (the restart tests) resets its connection: expected, not a failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: boundPort } = server.server.address() as AddressInfo;
  state.port = boundPort;
  state.url = `smtp://127.0.0.1:${boundPort}`;
  return state;
}

/** Decodes a quoted-printable body (nodemailer wraps long lines such as links this way). */
export function decodeQuotedPrintable(input: string): string {
  const bytes = input.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A received message as one text: headers unfolded, then the whole body with quoted-printable undone. */
export function readableMail(mail: ReceivedMail): string {
  const split = mail.raw.search(/\r?\n\r?\n/);
  return `${mail.raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ")}\n\n${decodeQuotedPrintable(mail.raw.slice(split))}`;
}

/** A received message split into subject and decoded text body (single-part text messages). */
export interface ParsedMail {
  to: string[];
  subject: string;
  text: string;
  /** The header block, continuation lines unfolded. */
  headers: string;
}

export function parseMail({ to, raw }: ReceivedMail): ParsedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = decodeEncodedWords(/^subject:\s*(.*)$/im.exec(unfolded)?.[1]?.trim() ?? "");
  const encoding = /^content-transfer-encoding:\s*(.*)$/im.exec(unfolded)?.[1]?.trim().toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return { to, subject, text, headers: unfolded };
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) as text; adjacent words join without the space between them. */
export function decodeEncodedWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_word, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}
