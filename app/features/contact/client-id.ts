/**
 * A v4 UUID identifying one submission across its retries. crypto.randomUUID exists only in secure
 * contexts (https, localhost); getRandomValues works everywhere, e.g. on http://192.168.x.x.
 */
export function newClientId(): string {
  if (typeof crypto.randomUUID === "function" && globalThis.isSecureContext !== false) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
