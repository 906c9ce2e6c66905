import { readFile } from "node:fs/promises";
import { expect, test } from "vitest";
import { CLIENT_SCHEMA, generateClientSchema } from "@/scripts/api-client";

/**
 * The typed client (clients/typescript) is generated from the document the app serves; a change to
 * the document without `npm run api:client` is drift, and the compiler (tsc covers clients/) only
 * checks the client against the document when the two agree.
 */
test("the checked-in client types are those the current OpenAPI document generates (npm run api:client)", async () => {
  const generated = await generateClientSchema();
  const checkedIn = await readFile(CLIENT_SCHEMA, "utf8");
  expect(checkedIn === generated, "clients/typescript/schema.ts is stale: run npm run api:client").toBe(true);
}, 60_000);
