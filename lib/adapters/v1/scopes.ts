/** The key scopes of docs/api.md, the same list as the api_keys_scopes_check constraint. */
export const API_SCOPES = [
  "contacts:read",
  "contacts:write",
  "consent:write",
  "events:read",
  "transactions:read",
  "transactions:write",
  "forms:read",
  "webhooks:write",
  "email:read",
] as const;

export type ApiScope = (typeof API_SCOPES)[number];
