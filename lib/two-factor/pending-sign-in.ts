import type { AuthMethod } from "@/lib/db/doors";
import { signValue, verifyValue } from "@/lib/auth/tokens";

/**
 * Between the password and the code: a short-lived signed value (its own purpose, so it is no
 * session) naming the account, the session version the password was checked at and when. It
 * grants nothing by itself; only the second step turns it into a session.
 */
export const PENDING_SIGN_IN_SECONDS = 10 * 60;
const PURPOSE = "two-factor-sign-in";

export interface PendingSignIn {
  userId: string;
  email: string;
  sessionVersion: number;
  password: AuthMethod;
}

export function signPendingSignIn(pending: PendingSignIn): Promise<string> {
  return signValue(PURPOSE, { ...pending }, PENDING_SIGN_IN_SECONDS);
}

export async function readPendingSignIn(token: string | undefined): Promise<PendingSignIn | null> {
  if (!token) return null;
  const value = await verifyValue<PendingSignIn & Record<string, unknown>>(PURPOSE, token);
  if (!value || typeof value.userId !== "string" || !Number.isInteger(value.sessionVersion)) return null;
  return {
    userId: value.userId,
    email: String(value.email ?? ""),
    sessionVersion: value.sessionVersion,
    password: value.password,
  };
}
