import type { Db } from "~/server/db/client.server";
import { activeCallTypes } from "./booking.server";
import { pickerData, type PickerData } from "./slot-picker.server";

/**
 * The home page's "Reach Me": the default call type's next three free days and their first six
 * times (in the owner's zone; /book shows the visitor's), or null when no call type is active. The
 * home page is cached per content version, which every booking and change bumps; /book checks again.
 */
export async function reachMeSlots(db: Db): Promise<PickerData | null> {
  const [callType] = await activeCallTypes(db);
  if (!callType) return null;
  return pickerData(db, callType, {}, { maxDays: 3, slotsPerDay: 6 });
}
