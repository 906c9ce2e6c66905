/**
 * The REST API v1 (docs/api.md): the route adapter, errors, pagination, and each area's
 * schemas and operation registry, from which lib/openapi builds the document.
 */
export {
  apiRoute,
  apiOperation,
  apiErrorResponse,
  ok,
  created,
  noContent,
  queryObject,
  API_BODY_LIMIT,
} from "./route";
export type { ApiContext, ApiReply, ApiRouteOptions } from "./route";
export { API_SCOPES, type ApiScope } from "./scopes";
export { apiErrorCode, apiErrorBody, API_ERROR_CODES, invalidFromZod } from "./errors";
export { authenticateKey, apiRateLimit, type ApiKeyActor, type RateLimitState } from "./key-auth";
export {
  pageQuerySchema,
  listSchema,
  encodeCursor,
  decodeCursor,
  pageOf,
  DEFAULT_LIMIT,
  MAX_LIMIT,
} from "./pagination";
export { IDEMPOTENCY_HOURS, sweepIdempotencyKeys } from "./idempotency";
export { errorBodySchema, type ApiOperation } from "./operation";
export { contactsOperations } from "./contacts/operations";
export * as contactSchemas from "./contacts/schemas";
