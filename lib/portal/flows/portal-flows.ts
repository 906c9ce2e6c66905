import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { appUrl, isHttps } from "@/lib/config";
import { withService, type Db } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { log } from "@/lib/observability/log";
import type { Translator } from "@/lib/i18n/translator";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";
import { knownRefusal, rememberRefusal } from "@/lib/rate-limit/refusal-memo";
import { billingCustomer, openBillingPortal } from "../memberships";
import { PORTAL_COOKIE, portalPath } from "../portal-links";
import { sessionTranslator, type PortalLocaleSources } from "../portal-locale";
import { endPortalSession, enterPortal, findPortalSession, type PortalSession } from "../portal-session";
import { requestPortalLink } from "../request-portal-link";

/**
 * docs/decisions.md, "Portal sessions": how many link requests one client IP and one address may make,
 * as [limit, window in seconds]. An address gets a few links an hour (each is an email to that
 * person); an IP twenty a minute, so a script asking for many addresses is throttled.
 */
export const PORTAL_LINK_LIMITS = { perIp: [20, 60], perAddress: [5, 3600] } as const;

export const TOO_MANY_LINKS = "Too many requests. Wait a few minutes, then try again.";

/**
 * The link request (DESIGN.md section 9): the IP's and the address's attempts are counted in a
 * transaction of their own first (public.check_rate_limit); an IP over its limit is refused
 * (rate_limited, whatever the address), and refused again by this process without the database
 * until its window frees (refusal-memo.ts); an address over its limit is answered as any other and
 * gets no email, so the answer never tells a known address from an unknown one.
 */
export async function requestPortalLinkFlow(input: {
  workspaceId: string;
  email: string;
  ip: string | null;
  /** the request's `?lang=` and Accept-Language: the email's language with the contact's (portalLocale) */
  locale: Pick<PortalLocaleSources, "lang" | "acceptLanguage">;
}): Promise<{ data: { accepted: true } } | Refused> {
  const address = input.email.trim().toLowerCase();
  const ipKey = `portal:link:ip:${input.ip ?? "unknown"}`;
  const known = knownRefusal(ipKey);
  if (known) return refused("rate_limited", TOO_MANY_LINKS, { retryAfter: known.retryAfterSeconds });
  // the address is counted only for a request its IP may make
  const [byIp, byAddress] = await withService(async (db) => {
    const ip = await checkRateLimit(db, ipKey, ...PORTAL_LINK_LIMITS.perIp);
    if (!ip.allowed) return [ip, null];
    const key = `portal:link:address:${input.workspaceId}:${address}`;
    return [ip, await checkRateLimit(db, key, ...PORTAL_LINK_LIMITS.perAddress)];
  });
  rememberRefusal(ipKey, byIp);
  if (!byAddress) return refused("rate_limited", TOO_MANY_LINKS, { retryAfter: byIp.retryAfterSeconds });
  if (byAddress.allowed && address.includes("@"))
    await withService((db) => requestPortalLink(db, { ...input, email: address }));
  return { data: { accepted: true } };
}

function cookieOptions(workspaceId: string, maxAge: number) {
  // the cookie goes to this workspace's portal only, never to the dashboard or another portal
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: isHttps(),
    path: `/portal/${workspaceId}`,
    maxAge,
  };
}

/** Following the link: spends it, opens the session, sets its cookie. */
export async function enterPortalFlow(input: { workspaceId: string; token: unknown }) {
  const ip = clientIp(await headers());
  const result = await withService((db) => enterPortal(db, { ...input, ip }));
  if ("data" in result) {
    const seconds = Math.max(1, Math.floor((result.data.expiresAt.getTime() - Date.now()) / 1000));
    (await cookies()).set(PORTAL_COOKIE, result.data.token, cookieOptions(input.workspaceId, seconds));
  }
  return result;
}

/** Sign-out: the session (if any) revoked and audited, the cookie cleared either way. */
export async function signOutFlow(workspaceId: string, ip: string | null): Promise<void> {
  const token = (await cookies()).get(PORTAL_COOKIE)?.value;
  await withService(async (db) => {
    const session = await findPortalSession(db, { workspaceId, token });
    if (session) await endPortalSession(db, session, ip);
  });
  (await cookies()).set(PORTAL_COOKIE, "", cookieOptions(workspaceId, 0));
}

/** The portal session of this request for the workspace of its path, or null. */
export async function currentPortalSession(workspaceId: string): Promise<PortalSession | null> {
  const token = (await cookies()).get(PORTAL_COOKIE)?.value;
  if (!token) return null;
  return withService((db) => findPortalSession(db, { workspaceId, token }));
}

export interface PortalActContext {
  ip: string | null;
  t: Translator;
  lang: string | null;
}

/**
 * A portal act of the signed-in contact (a server action's body): the session is read from the
 * cookie for the workspace the form names, in the transaction of the act, so a revoked or expired
 * session does nothing; then `fn` with the session's contact and workspace (never ids from the
 * form). Ends with a redirect: back to the portal page with the act's notice, or to the sign-in
 * page when there is no session.
 */
export async function portalAct(
  input: { workspaceId: string; lang?: string | null },
  fn: (db: Db, session: PortalSession, ctx: PortalActContext) => Promise<string>,
): Promise<never> {
  const requestHeaders = await headers();
  const lang = input.lang ?? null;
  const token = (await cookies()).get(PORTAL_COOKIE)?.value;
  const notice = await withService(async (db) => {
    const session = await findPortalSession(db, { workspaceId: input.workspaceId, token });
    if (!session) return null;
    const t = sessionTranslator(session, { lang, acceptLanguage: requestHeaders.get("accept-language") });
    return fn(db, session, { ip: clientIp(requestHeaders), lang, t });
  });
  if (notice === null) redirect(portalPath(input.workspaceId, "", { expired: "1", lang }));
  redirect(portalPath(input.workspaceId, "/me", { done: notice, lang }) + "#notice");
}

/**
 * A portal download (the data export, a receipt): `fn` with the session of the cookie for the
 * path's workspace, in one transaction; null without one.
 */
export async function withPortalSession<T>(
  workspaceId: string,
  fn: (db: Db, session: PortalSession, ip: string | null) => Promise<T>,
): Promise<T | null> {
  const token = (await cookies()).get(PORTAL_COOKIE)?.value;
  const ip = clientIp(await headers());
  return withService(async (db) => {
    const session = await findPortalSession(db, { workspaceId, token });
    return session ? fn(db, session, ip) : null;
  });
}

/**
 * "Manage payment and subscriptions": a Stripe customer portal session for the signed-in contact's
 * customer on the workspace's connected account, back to their portal page after. Null without a
 * session; `notFound` when they have no subscription; `billingUnavailable` when Stripe cannot be
 * reached (logged), so the page says so rather than failing.
 */
export async function billingPortalFlow(input: {
  workspaceId: string;
  lang: string | null;
}): Promise<{ url: string } | { notice: "notFound" | "billingUnavailable" } | null> {
  const billing = await withPortalSession(
    input.workspaceId,
    async (db, session, ip) => (await billingCustomer(db, session, ip)) ?? "none",
  );
  if (billing === null) return null;
  if (billing === "none") return { notice: "notFound" };
  try {
    const back = `${appUrl()}${portalPath(input.workspaceId, "/me", { lang: input.lang })}`;
    return { url: await openBillingPortal(billing, back) };
  } catch (error) {
    log.warn({ err: error }, "portal: the Stripe customer portal could not be opened");
    return { notice: "billingUnavailable" };
  }
}
