import type { ZodOpenApiPathsObject } from "zod-openapi";

/** The REST API v1 (DESIGN section 8). */
export const v1Paths: ZodOpenApiPathsObject = {};
