import { publicRoute } from "@/lib/adapters/public-route";

/**
 * The viewer's start-up call, as a script of this origin: the page's CSP allows no inline script
 * (decision record "A strict Content-Security-Policy: scripts by nonce").
 */
const INIT = `Scalar.createApiReference("#app", ${JSON.stringify({
  url: "/api/openapi.json",
  // nothing from another origin (a test counts the page's requests and console errors): no web
  // fonts, no telemetry, no AI agent, no developer toolbar (its registry and sharing features
  // call scalar.com), no API client window, no request proxy
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
})});\n`;

export const GET = publicRoute(
  { name: "api reference start-up" },
  async () =>
    new Response(INIT, {
      headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
    }),
);
