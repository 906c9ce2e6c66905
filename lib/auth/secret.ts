import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// keyed by the variable it came from: one process may see AUTH_SECRET set later (test files sharing a
// worker, docs/decisions.md "A fast suite that needs nothing by hand")
let cached: { from: string | undefined; key: Uint8Array } | undefined;

/**
 * The HS256 key for local sessions: AUTH_SECRET, or a random one generated once and
 * kept in ./.data/auth-secret so that sessions survive restarts of the embedded setup.
 */
export function authSecret(): Uint8Array {
  const from = process.env.AUTH_SECRET;
  if (cached && cached.from === from) return cached.key;
  let secret = from;
  if (!secret) {
    const file = path.join(process.env.DATA_DIR ?? path.join(process.cwd(), ".data"), "auth-secret");
    try {
      secret = readFileSync(file, "utf8").trim();
    } catch {
      secret = randomBytes(32).toString("base64url");
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, secret, { mode: 0o600 });
    }
  }
  if (secret.length < 32) throw new Error("AUTH_SECRET must be at least 32 characters");
  cached = { from, key: new TextEncoder().encode(secret) };
  return cached.key;
}
