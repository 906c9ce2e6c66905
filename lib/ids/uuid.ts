import { z } from "zod";

/**
 * The one uuid check. Every id from a URL, a form, a bound action argument or a provider is
 * checked here before it reaches a uuid column: Postgres answers a malformed uuid with an
 * error (a 500 where a 404 belongs). The shape is Postgres's own text form, 8-4-4-4-12 hex
 * digits in either case, whatever the version (zod's guid); anything else is "not found"
 * without a query.
 */
export const UUID_SOURCE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** The check as a zod schema, for inputs parsed with zod; `error` is the refusal's message. */
export function uuidField(error: string) {
  return z.guid({ error });
}

export const uuidSchema = uuidField("Not a valid id.");

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}
