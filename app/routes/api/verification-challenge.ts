import { createAltchaChallenge } from "~/features/verification/verification.server";
import { getDb } from "~/server/db/client.server";

export async function loader() {
  const challenge = await createAltchaChallenge(getDb());
  return Response.json(challenge, { headers: { "Cache-Control": "no-store" } });
}
