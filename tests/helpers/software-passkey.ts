import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A passkey held in memory (what Chromium's virtual authenticator does for e2e): an ES256 key pair that
 * answers WebAuthn registration ("none" attestation) and authentication for one relying party, so unit and
 * integration tests can add a real passkey and use it without a browser.
 */
export interface SoftwarePasskey {
  id: string;
  register(challenge: string): RegistrationResponseJSON;
  assert(challenge: string): AuthenticationResponseJSON;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

export function softwarePasskey(rp: { id: string; origin: string }, userId = "user"): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const credentialId = randomBytes(16);
  // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]),
  );
  let counter = 0;

  function authenticatorData(attested: boolean): Buffer {
    counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const flags = FLAG_USER_PRESENT | FLAG_USER_VERIFIED | (attested ? FLAG_ATTESTED_CREDENTIAL : 0);
    const head = Buffer.concat([sha256(rp.id), Buffer.from([flags]), count]);
    if (!attested) return head;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    return Buffer.concat([head, Buffer.alloc(16), idLength, credentialId, coseKey]);
  }

  const clientData = (type: "webauthn.create" | "webauthn.get", challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: rp.origin, crossOrigin: false }));

  const id = b64url(credentialId);
  /** The envelope a browser hands over around an authenticator's response. */
  const credential = <R>(response: R) => ({ id, rawId: id, type: "public-key" as const, clientExtensionResults: {}, response });
  return {
    id,
    register(challenge) {
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", authenticatorData(true)],
        ]),
      );
      return credential({
        clientDataJSON: b64url(clientData("webauthn.create", challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      });
    },
    assert(challenge) {
      const data = authenticatorData(false);
      const client = clientData("webauthn.get", challenge);
      const signature = sign("sha256", Buffer.concat([data, sha256(client)]), { key: privateKey, dsaEncoding: "der" });
      return credential({
        clientDataJSON: b64url(client),
        authenticatorData: b64url(data),
        signature: b64url(signature),
        userHandle: b64url(Buffer.from(userId)),
      });
    },
  };
}
