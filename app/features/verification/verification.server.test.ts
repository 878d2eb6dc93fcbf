import { expect, it } from "vitest";
import { ForbiddenError } from "~/server/errors.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../../../tests/helpers/altcha";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { verifyHumanToken } from "./verification.server";

type Payload = Record<string, unknown>;
const decode = (token: string): Payload => JSON.parse(Buffer.from(token, "base64").toString("utf8")) as Payload;
const encode = (payload: Payload, space?: number) => Buffer.from(JSON.stringify(payload, null, space)).toString("base64");

describeEachDatabase("human verification", (ctx) => {
  it("accepts a solved challenge once, however its token is re-encoded", async () => {
    const token = await easyAltchaToken(await getAppSecret(ctx.db));
    await verifyHumanToken(ctx.db, token);
    const payload = decode(token);
    const reversed = Object.fromEntries(Object.entries(payload).reverse());
    const replays = [
      token,
      encode(payload, 2),
      encode(reversed),
      encode({ ...payload, extra: "x" }),
      encode({ ...payload, number: String(payload.number) }),
    ];
    for (const replay of replays) {
      await expect(verifyHumanToken(ctx.db, replay), replay).rejects.toBeInstanceOf(ForbiddenError);
    }
  });

  it("refuses tokens that are not a solved challenge", async () => {
    const payload = decode(await easyAltchaToken(await getAppSecret(ctx.db)));
    for (const bad of ["", "not base64 !", encode({ ...payload, signature: "forged" }), Buffer.from("[1]").toString("base64")]) {
      await expect(verifyHumanToken(ctx.db, bad)).rejects.toBeInstanceOf(ForbiddenError);
    }
  });
});
