import { readFile } from "node:fs/promises";
import path from "node:path";

let bundle: Promise<Buffer> | undefined;

/** Scalar's standalone bundle from node_modules (@scalar/api-reference), served from this origin. */
export async function GET() {
  bundle ??= readFile(
    path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"),
  );
  return new Response(new Uint8Array(await bundle), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
