import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { contactsOperations } from "@/lib/api/v1/contacts/operations";
import { errorBodySchema } from "@/lib/api/v1/operation";

/**
 * The contacts operations of the v1 API in the document, from their registry (the handlers' own
 * zod schemas). A plain rendering: the api-rest branch's lib/openapi/paths/v1.ts renders every v1
 * operation richer, and takes this registry over at merge (NOTES-api-core.md).
 */
export function v1ContactsPaths(): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
  for (const op of contactsOperations) {
    const responses: Record<string, ZodOpenApiResponseObject> = {};
    for (const s of [op.success, ...(op.alsoSuccess ?? [])])
      responses[String(s.status)] = { description: s.description, ...(s.schema ? json(s.schema) : {}) };
    for (const e of [
      ...op.errors,
      { status: 401, codes: ["unauthorized"] },
      { status: 429, codes: ["rate_limited"] },
    ])
      responses[String(e.status)] = {
        description: `Codes: ${e.codes.join(", ")}.`,
        ...json(errorBodySchema),
      };
    paths[op.path] = {
      ...paths[op.path],
      [op.method]: {
        operationId: op.operationId,
        tags: ["Contacts"],
        summary: op.summary,
        description: [op.description, `Scope: \`${op.scope}\`.`].filter(Boolean).join(" "),
        security: [{ apiKey: [] }],
        requestParams: {
          ...(op.params ? { path: op.params as z.ZodObject } : {}),
          ...(op.query ? { query: op.query as z.ZodObject } : {}),
        },
        ...(op.body ? { requestBody: { required: true, ...json(op.body) } } : {}),
        responses,
      },
    };
  }
  return paths;
}
