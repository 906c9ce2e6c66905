import { readFile } from "node:fs/promises";
import path from "node:path";
import { publicRoute } from "@/lib/adapters/public-route";

let bundle: Promise<Buffer> | undefined;

/** Scalar's standalone bundle from node_modules (@scalar/api-reference), served from this origin. */
export const GET = publicRoute({ name: "api reference bundle" }, async () => {
  bundle ??= readFile(
    path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"),
  );
  return new Response(new Uint8Array(await bundle), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
