import { describe, expect, test } from "vitest";
import { signValue } from "@/lib/auth/tokens";
import { STRIPE_CONNECT_PURPOSE, stripeConnectAuthorizeUrl } from "@/lib/payments/stripe-connect";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { setupStripeFake } from "../helpers/payments";

const { disconnectAction, saveConnectionAction } =
  await import("@/app/(dashboard)/settings/payments/actions");
const { GET: callback } = await import("@/app/api/auth/payproc/callback/route");

const db = setupTestDatabase();
const stripe = setupStripeFake();

const connectionsOf = (workspaceId: string) =>
  db.sql`select payproc_account_id, livemode from payproc_connections where workspace_id = ${workspaceId}`;

const tokenCalls = () => stripe.fake.requests.filter((r) => r.path === "/oauth/token").length;

function returnFromStripe(query: Record<string, string>) {
  const url = new URL("http://crm.test/api/auth/payproc/callback");
  url.search = new URLSearchParams(query).toString();
  return callback(new Request(url), { params: Promise.resolve({}) });
}

describe("claiming another's Stripe account: a workspace's Stripe account is only ever the one Stripe Connect answers", () => {
  test("a typed Stripe id cannot be saved", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const form = new FormData();
    form.set("payprocAccountId", "acct_victim123");
    form.set("livemode", "on");
    form.set("autoSubscribePurchasers", "on");
    await saveConnectionAction({}, form);
    expect(await connectionsOf(ws.id)).toEqual([]);
    expect(
      await db.sql`select 1 from payproc_connections where payproc_account_id = 'acct_victim123'`,
    ).toEqual([]);
  });

  test("the OAuth callback stores Stripe's stripe_user_id and livemode, and nothing the member sent", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const { code, account } = stripe.fake.issueConnectCode({ livemode: true });
    const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: ws.id, userId: ws.owner.id });
    const res = await returnFromStripe({ code, state, stripe_user_id: "acct_typed", livemode: "false" });
    expect(res.headers.get("location")).toMatch(/\/settings\/payments\?connected=1$/);
    expect(await connectionsOf(ws.id)).toEqual([{ payproc_account_id: account, livemode: true }]);
    // the code is single-use at Stripe: replaying the callback changes nothing
    const again = await returnFromStripe({ code, state });
    expect(again.headers.get("location")).toMatch(/error=provider_failed$/);
  });

  test("a forged state, or one for another workspace or member, never reaches Stripe and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    signIn(ws.owner.claims);
    const before = tokenCalls();
    for (const state of [
      "forged",
      await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: other.id, userId: ws.owner.id }),
      await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: ws.id, userId: admin.id }),
      await signValue("ticketing-oauth", { workspaceId: ws.id, userId: ws.owner.id }),
    ]) {
      const res = await returnFromStripe({ code: stripe.fake.issueConnectCode().code, state });
      expect(res.headers.get("location")).toMatch(/error=invalid$/);
    }
    expect(tokenCalls()).toBe(before);
    expect(await connectionsOf(ws.id)).toEqual([]);
  });

  test("a member (not admin) cannot connect", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: ws.id, userId: member.id });
    const res = await returnFromStripe({ code: stripe.fake.issueConnectCode().code, state });
    expect(res.headers.get("location")).toMatch(/error=forbidden$/);
    expect(await connectionsOf(ws.id)).toEqual([]);
  });

  test("an account connected to another workspace is refused without naming that workspace", async () => {
    const first = await createWorkspace(db.sql);
    const second = await createWorkspace(db.sql);
    const account = `acct_shared${Date.now()}`;
    for (const ws of [first, second]) {
      signIn(ws.owner.claims);
      const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: ws.id, userId: ws.owner.id });
      const res = await returnFromStripe({ code: stripe.fake.issueConnectCode({ account }).code, state });
      if (ws === second) expect(res.headers.get("location")).toMatch(/\?error=conflict$/);
    }
    expect(await connectionsOf(second.id)).toEqual([]);
    expect(await connectionsOf(first.id)).toEqual([{ payproc_account_id: account, livemode: false }]);
  });

  test("disconnecting removes the row and deauthorizes the account at Stripe", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const { code } = stripe.fake.issueConnectCode();
    const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: ws.id, userId: ws.owner.id });
    await returnFromStripe({ code, state });
    await disconnectAction({}, new FormData());
    expect(await connectionsOf(ws.id)).toEqual([]);
    const deauth = stripe.fake.requests.filter((r) => r.path === "/oauth/deauthorize");
    expect(deauth.length).toBeGreaterThanOrEqual(1);
  });

  test("the authorize address carries the Connect client id, the callback and the signed state", () => {
    const url = new URL(stripeConnectAuthorizeUrl("s1"));
    expect(`${url.origin}${url.pathname}`).toBe(`${stripe.fake.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      scope: "read_write",
      client_id: "ca_fake_connect_client",
      state: "s1",
    });
    expect(url.searchParams.get("redirect_uri")).toMatch(/\/api\/auth\/payproc\/callback$/);
  });
});
