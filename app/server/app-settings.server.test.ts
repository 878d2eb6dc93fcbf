import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { z } from "zod";
import { describeEachDatabase } from "../../tests/helpers/databases";
import { readJsonSetting, writeJsonSetting } from "./app-settings.server";
import { appSettings } from "./db/schema.server";

const schema = z.object({ title: z.string().min(1), count: z.number().int() });

describeEachDatabase("settings records", (ctx) => {
  it("reads none stored, not JSON, or not what the schema says as null; a valid record as parsed", async () => {
    expect(await readJsonSetting(ctx.db, "test_record", schema)).toBeNull();

    await writeJsonSetting(ctx.db, "test_record", { title: "One", count: 1 });
    expect(await readJsonSetting(ctx.db, "test_record", schema)).toEqual({ title: "One", count: 1 });
    await writeJsonSetting(ctx.db, "test_record", { title: "Two", count: 2 });
    expect(await readJsonSetting(ctx.db, "test_record", schema)).toEqual({ title: "Two", count: 2 });
    expect(await ctx.db.select({ key: appSettings.key }).from(appSettings).where(eq(appSettings.key, "test_record"))).toHaveLength(1);

    await ctx.db.update(appSettings).set({ value: "{not json" }).where(eq(appSettings.key, "test_record"));
    expect(await readJsonSetting(ctx.db, "test_record", schema)).toBeNull();
    await writeJsonSetting(ctx.db, "test_record", { title: "", count: 1.5 });
    expect(await readJsonSetting(ctx.db, "test_record", schema)).toBeNull();
    await ctx.db.delete(appSettings).where(eq(appSettings.key, "test_record"));
  });
});
