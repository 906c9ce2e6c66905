import { publicRoute } from "@/lib/adapters/public-route";
import { openApiDocument } from "@/lib/openapi/document";

let cached: string | undefined;

/** GET /api/openapi.json: the OpenAPI 3.1 document of app/api (docs/decisions.md, "OpenAPI and the API reference"). */
export const GET = publicRoute({ name: "openapi document" }, async () => {
  cached ??= JSON.stringify(openApiDocument());
  return new Response(cached, {
    headers: {
      "Content-Type": "application/json",
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": "public, max-age=300",
    },
  });
});
