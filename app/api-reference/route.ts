import { publicRoute } from "@/lib/adapters/public-route";

/**
 * The API reference (docs/decisions.md, "OpenAPI and the API reference"): Scalar's standalone viewer of GET /api/openapi.json. Public,
 * like the endpoints it describes; linked from the dashboard (forms' embed panel, API keys,
 * webhooks). The viewer and its start-up call are served from this origin (scalar.js, init.js), so
 * the CSP, which allows no inline script, needs no exception.
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · CRM</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="/api-reference/scalar.js"></script>
    <script src="/api-reference/init.js"></script>
  </body>
</html>`;

export const GET = publicRoute(
  { name: "api reference" },
  async () => new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
);
