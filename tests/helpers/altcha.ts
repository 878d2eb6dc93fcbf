import { createChallenge, solveChallenge } from "altcha-lib";
import { z } from "zod";

/** An ALTCHA challenge as the server hands it out (GET /api/verification/challenge). */
export const altchaChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  salt: z.string(),
  signature: z.string(),
  maxnumber: z.number().optional(),
});
export type AltchaChallenge = z.infer<typeof altchaChallenge>;

/** The proof-of-work solver of every test: solves a challenge the way the widget does and returns the token the server checks. */
export async function solveAltcha(challenge: AltchaChallenge): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error("could not solve the verification challenge");
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

/**
 * A valid, single-use ALTCHA token signed with `secret` (the app's signing secret) — an easy challenge,
 * so that hundreds can be solved quickly. The server's check (signature, expiry, single use) is the real one.
 */
export async function easyAltchaToken(secret: string): Promise<string> {
  return solveAltcha(await createChallenge({ hmacKey: secret, maxNumber: 20, expires: new Date(Date.now() + 600_000) }));
}
