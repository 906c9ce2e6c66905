import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  confirmEnrolmentSupabase,
  disableSupabase,
  secondStepPendingSupabase,
  startEnrolmentSupabase,
  verifyCodeSupabase,
} from "@/lib/auth/flows/supabase-mfa";
import { signInSupabase } from "@/lib/auth/flows/supabase";
import { supabaseClaims, type CookieJar } from "@/lib/auth/supabase-provider";
import { acceptedStep, newTotpSecret, totpCode } from "@/lib/two-factor/totp";

// A second factor with Supabase Auth configured: Supabase's MFA (enroll, challenge and verify,
// getAuthenticatorAssuranceLevel) and the session's `aal`. A local stand-in for the Supabase
// Auth (GoTrue) endpoints those calls use, answering as its API reference documents: sessions
// whose access token carries `aal` and `amr`, factors on the user.

interface Factor {
  id: string;
  factor_type: "totp";
  status: "verified" | "unverified";
  secret: string;
}
interface User {
  id: string;
  email: string;
  password: string;
  factors: Factor[];
}
const users = new Map<string, User>();
const tokens = new Map<string, { userId: string; aal: string }>();
const calls: { method: string; path: string; body: Record<string, unknown> }[] = [];
let server: Server;
const key = new TextEncoder().encode("fake-gotrue-signing-key-for-tests-only");

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

const publicUser = (user: User) => ({
  id: user.id,
  aud: "authenticated",
  email: user.email,
  factors: user.factors.map(({ id, factor_type, status }) => ({ id, factor_type, status })),
});

async function session(user: User, aal: "aal1" | "aal2", amr: { method: string; timestamp: number }[]) {
  const accessToken = await new SignJWT({ role: "authenticated", email: user.email, aal, amr })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
  tokens.set(accessToken, { userId: user.id, aal });
  return {
    access_token: accessToken,
    refresh_token: randomUUID(),
    expires_in: 3600,
    token_type: "bearer",
    user: publicUser(user),
  };
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://x");
    const body = await readJson(req);
    calls.push({ method: req.method!, path: url.pathname, body });
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(json === undefined ? "" : JSON.stringify(json));
    };
    const bearer = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    const user = bearer ? users.get(bearer.userId) : undefined;
    const now = Math.floor(Date.now() / 1000);
    if (url.pathname === "/auth/v1/token" && url.searchParams.get("grant_type") === "password") {
      const found = [...users.values()].find((u) => u.email === body.email && u.password === body.password);
      if (!found) return reply(400, { code: "invalid_credentials", msg: "Invalid login credentials" });
      return reply(200, await session(found, "aal1", [{ method: "password", timestamp: now }]));
    }
    if (!user) return reply(401, { code: "bad_jwt", msg: "invalid JWT" });
    if (url.pathname === "/auth/v1/user") return reply(200, publicUser(user));
    if (url.pathname === "/auth/v1/logout") return reply(204);
    if (url.pathname === "/auth/v1/factors" && req.method === "POST") {
      const factor: Factor = {
        id: randomUUID(),
        factor_type: "totp",
        status: "unverified",
        secret: newTotpSecret(),
      };
      user.factors.push(factor);
      const uri = `otpauth://totp/Fake:${user.email}?secret=${factor.secret}&issuer=Fake`;
      return reply(200, {
        id: factor.id,
        type: "totp",
        friendly_name: body.friendly_name,
        totp: { qr_code: "<svg/>", secret: factor.secret, uri },
      });
    }
    const match = /^\/auth\/v1\/factors\/([^/]+)(\/challenge|\/verify)?$/.exec(url.pathname);
    const factor = match && user.factors.find((f) => f.id === match[1]);
    if (!factor) return reply(404, { code: "mfa_factor_not_found", msg: "Factor not found" });
    if (match[2] === "/challenge")
      return reply(200, { id: `challenge-${randomUUID()}`, type: "totp", expires_at: now + 300 });
    if (match[2] === "/verify") {
      if (typeof body.challenge_id !== "string" || acceptedStep(factor.secret, String(body.code)) === null)
        return reply(422, { code: "mfa_verification_failed", msg: "Invalid TOTP code entered" });
      factor.status = "verified";
      return reply(
        200,
        await session(user, "aal2", [
          { method: "password", timestamp: now - 60 },
          { method: "totp", timestamp: now },
        ]),
      );
    }
    // DELETE: Supabase asks for aal2 to remove a verified factor
    if (factor.status === "verified" && bearer!.aal !== "aal2")
      return reply(403, { code: "insufficient_aal", msg: "AAL2 required" });
    user.factors = user.factors.filter((f) => f.id !== factor.id);
    return reply(200, { id: factor.id });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.NEXT_PUBLIC_SUPABASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY = "anon-key-for-tests";
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function memoryJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    getAll: () => [...cookies].map(([name, value]) => ({ name, value })),
    setAll: (list) =>
      list.forEach(({ name, value }) => (value ? cookies.set(name, value) : cookies.delete(name))),
  };
}

function account(): User {
  const user = {
    id: randomUUID(),
    email: `${randomUUID().slice(0, 8)}@example.test`,
    password: "pw-123456",
    factors: [],
  };
  users.set(user.id, user);
  return user;
}

async function signedIn(user: User): Promise<CookieJar> {
  const jar = memoryJar();
  expect(await signInSupabase(jar, { email: user.email, password: user.password })).toMatchObject({
    data: { userId: user.id },
  });
  return jar;
}

describe("a second factor with Supabase Auth: its MFA and the session's aal", () => {
  test("enrolment: the QR code is drawn here from Supabase's URI; the first code verifies the factor and the session is aal2", async () => {
    const user = account();
    const jar = await signedIn(user);
    const started = await startEnrolmentSupabase(jar);
    if (!("data" in started)) throw started.error;
    expect(started.data.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(started.data.secret).toBe(user.factors[0].secret);
    expect(await confirmEnrolmentSupabase(jar, started.data.factorId, "000000")).toBe(false);
    expect(user.factors[0].status).toBe("unverified");
    expect(await confirmEnrolmentSupabase(jar, started.data.factorId, totpCode(started.data.secret))).toBe(
      true,
    );
    expect(user.factors[0].status).toBe("verified");
    expect(await supabaseClaims(jar)).toMatchObject({ sub: user.id, aal: "aal2" });
  });

  test("the password alone, for an account with a verified factor, is no session until a code raises it to aal2", async () => {
    const user = account();
    const setup = await signedIn(user);
    const started = await startEnrolmentSupabase(setup);
    if (!("data" in started)) throw started.error;
    await confirmEnrolmentSupabase(setup, started.data.factorId, totpCode(started.data.secret));

    const jar = await signedIn(user);
    expect(await secondStepPendingSupabase(jar)).toBe(true);
    expect(await supabaseClaims(jar)).toBeNull();
    expect(await verifyCodeSupabase(jar, "000000")).toBe(false);
    expect(await supabaseClaims(jar)).toBeNull();
    expect(await verifyCodeSupabase(jar, totpCode(started.data.secret))).toBe(true);
    expect(await secondStepPendingSupabase(jar)).toBe(false);
    const claims = await supabaseClaims(jar);
    expect(claims).toMatchObject({ sub: user.id, aal: "aal2" });
    expect(claims!.amr!.map((entry) => entry.method)).toEqual(["password", "totp"]);
    const verify = calls.filter((c) => c.path.endsWith("/verify")).at(-1)!;
    expect(verify.body).toMatchObject({ challenge_id: expect.stringMatching(/^challenge-/) });
  });

  test("turning it off needs a valid code first; then the factor is unenrolled", async () => {
    const user = account();
    const jar = await signedIn(user);
    const started = await startEnrolmentSupabase(jar);
    if (!("data" in started)) throw started.error;
    await confirmEnrolmentSupabase(jar, started.data.factorId, totpCode(started.data.secret));
    expect(await disableSupabase(jar, "000000")).toBe(false);
    expect(user.factors).toHaveLength(1);
    expect(await disableSupabase(jar, totpCode(started.data.secret))).toBe(true);
    expect(user.factors).toHaveLength(0);
  });

  test("users without a factor are signed in by the password as before (aal1, not pending)", async () => {
    const user = account();
    const jar = await signedIn(user);
    expect(await secondStepPendingSupabase(jar)).toBe(false);
    expect(await supabaseClaims(jar)).toMatchObject({ sub: user.id, aal: "aal1" });
  });
});
