import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "postgres",
    // MJML loads its components and minifier at run time: kept out of the bundle
    "mjml",
  ],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
  // Bounded bodies: Next.js buffers a copy of the body of requests that reach proxy.ts (the one-click
  // unsubscribe POST, whose body the service never reads; a page's form posted before its script
  // ran): 64 KiB instead of the default 10 MB. Route handlers and server actions skip the proxy.
  experimental: { proxyClientMaxBodySize: 64 * 1024 },
  // Security headers: frame-ancestors, nosniff, referrer policy, HSTS on https, and the CSP of route
  // handlers (see the module); the pages' CSP, with its nonce, is set by proxy.ts.
  async headers() {
    // nothing of the address it is served at (APP_URL is read at run time: docs/decisions.md,
    // "One build, any address")
    return securityHeaders({ dev: process.env.NODE_ENV === "development" });
  },
};

export default nextConfig;
