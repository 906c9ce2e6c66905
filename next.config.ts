import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
  // Attack 8: CSP with frame-ancestors, nosniff, referrer policy, HSTS on https (see the module).
  async headers() {
    return securityHeaders({
      appUrl: process.env.APP_URL ?? "",
      dev: process.env.NODE_ENV === "development",
    });
  },
};

export default nextConfig;
