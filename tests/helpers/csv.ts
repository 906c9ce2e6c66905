/** A CSV text as a stream of byte chunks of the given size (to cut rows and characters anywhere). */
export async function* bytesOf(text: string | Uint8Array, chunkSize = 64 * 1024): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
}

/** The rows of the tables an import writes, for comparing the database before and after. */
export const IMPORT_TABLES = [
  "contacts",
  "tags",
  "contact_tags",
  "notes",
  "consent_events",
  "contact_suppressions",
];
