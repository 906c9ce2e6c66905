/**
 * The typed client of the CRM's REST API v1 (docs/api.md): openapi-fetch over the types that
 * `npm run api:client` generates from the OpenAPI document (schema.ts). Paths, parameters, bodies
 * and answers are checked by the compiler; an error answer is `{ error: { code, message } }`.
 *
 *   const crm = createCrmClient({ baseUrl: "https://crm.example.org", apiKey: process.env.CRM_API_KEY! });
 *   const { data, error } = await crm.GET("/api/v1/events", { params: { query: { limit: 50 } } });
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths, webhooks } from "./schema";

export type CrmClient = Client<paths>;

export function createCrmClient(options: { baseUrl: string; apiKey: string } & ClientOptions): CrmClient {
  const { apiKey, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${apiKey}` },
  });
}
