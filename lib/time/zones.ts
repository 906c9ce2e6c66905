/**
 * Time zones: the one validator and the one list. A zone is valid when the runtime can
 * format in it (IANA names and their aliases); anything else falls back to UTC, the
 * profile default.
 */
export const FALLBACK_TIME_ZONE = "UTC";

export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone itself when valid, else UTC. */
export function safeTimeZone(zone: string | null | undefined): string {
  return isTimeZone(zone) ? zone : FALLBACK_TIME_ZONE;
}

let cached: string[] | undefined;

/** The zones a picker offers: the runtime's IANA list plus 'UTC', which that list leaves out. */
export function timeZones(): string[] {
  cached ??= [
    FALLBACK_TIME_ZONE,
    ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== FALLBACK_TIME_ZONE),
  ];
  return cached;
}
