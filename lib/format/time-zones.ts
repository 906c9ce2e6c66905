/**
 * The IANA time zones a profile may choose: the runtime's list
 * (`Intl.supportedValuesOf('timeZone')`) plus 'UTC', the profile default, which that list
 * leaves out.
 */
let cached: string[] | undefined;

export function timeZones(): string[] {
  cached ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return cached;
}

export function isTimeZone(value: string): boolean {
  return timeZones().includes(value);
}
