/**
 * A local Stripe API for tests, benchmarks and the e2e app: checkout sessions (+ line items
 * with expanded price.product), charges, refunds (created[gte]/[lte], starting_after,
 * has_more) and payment intents, each scoped to the account in the Stripe-Account header.
 * It signs webhook events the way Stripe does, and can be told to fail (a dropped
 * connection, 429, 500) for retry tests. Control endpoints under /__control/ let a process
 * that only knows the URL (the Playwright test) add purchases and refunds. Billing
 * (subscriptions, invoices, a clock) is in stripe-billing.ts, reached as `fake.billing`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import {
  buildCharge,
  buildCheckoutSession,
  buildEvent,
  buildLineItem,
  buildPaymentIntent,
  buildRefund,
  type FakeCheckoutInput,
} from "./stripe-objects";
import { createBilling, type FakeBilling } from "./stripe-billing";

type Obj = Record<string, unknown>;
interface Stored {
  account: string | null;
  obj: Obj;
}
export interface SignedEvent {
  event: Obj;
  payload: string;
  header: string;
}
export type Failure = "network" | 429 | 500;
export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  account: string | null;
}

export const FAKE_STRIPE_KEY = "sk_test_fake_key";
export const FAKE_WEBHOOK_SECRET = "whsec_fake_test_secret";
export const FAKE_CONNECT_CLIENT_ID = "ca_fake_connect_client";

export interface StripeFake {
  url: string;
  env: Record<string, string>;
  requests: LoggedRequest[];
  stop(): Promise<void>;
  addCheckout(input: FakeCheckoutInput): { session: Obj; items: Obj[] };
  /** a charge for a payment intent (created with the intent when missing) */
  addCharge(input: {
    account?: string | null;
    paymentIntent: string;
    amount: number;
    currency?: string;
    livemode?: boolean;
  }): Obj;
  /** the id of the charge of a payment intent */
  chargeIdOf(paymentIntentId: string): string | null;
  /** refunds part of a charge: a refund object, and the charge's cumulative amount_refunded grows */
  refund(chargeId: string, amount: number, created?: number): { charge: Obj; refund: Obj };
  failNext(path: string | RegExp, failure: Failure, times?: number): void;
  clearFailures(): void;
  sign(
    type: string,
    object: Obj,
    opts?: { account?: string | null; livemode?: boolean; id?: string; created?: number },
  ): SignedEvent;
  /** Stripe Billing: subscriptions, invoices and a clock (stripe-billing.ts) */
  billing: FakeBilling;
  checkoutEvent(session: Obj, opts?: { account?: string | null; id?: string }): SignedEvent;
  /**
   * Stripe Connect OAuth: a single-use authorization code that POST /oauth/token exchanges
   * for this account (a fresh acct_ id unless given). GET /oauth/authorize issues one for a
   * fresh account and sends the browser back at once, as if the person had approved.
   */
  issueConnectCode(opts?: { account?: string; livemode?: boolean }): { code: string; account: string };
  refundEvent(charge: Obj, opts?: { account?: string | null; id?: string }): SignedEvent;
  /** every POST /oauth/deauthorize accepted, in order: the client id and the account named */
  deauthorized: { clientId: string | null; account: string | null }[];
}

export async function startStripeFake(options: { port?: number } = {}): Promise<StripeFake> {
  const sessions = new Map<string, Stored & { items: Obj[]; products: Map<string, Obj> }>();
  const charges = new Map<string, Stored>();
  const intents = new Map<string, Stored>();
  const refunds: Stored[] = [];
  const failures: { path: string | RegExp; failure: Failure; left: number }[] = [];
  const requests: LoggedRequest[] = [];
  const connectCodes = new Map<string, { account: string; livemode: boolean }>();
  const deauthorized: StripeFake["deauthorized"] = [];
  const issueConnectCode = (opts: { account?: string; livemode?: boolean } = {}) => {
    const code = `ac_fake_${Math.random().toString(36).slice(2, 12)}`;
    const account = opts.account ?? `acct_fake${Math.random().toString(36).slice(2, 12)}`;
    connectCodes.set(code, { account, livemode: opts.livemode ?? false });
    return { code, account };
  };

  const notFound = (res: ServerResponse, what: string) =>
    send(res, 404, {
      error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` },
    });

  function visible<T extends Stored>(stored: T | undefined, account: string | null): T | undefined {
    return stored && stored.account === account ? stored : undefined;
  }

  function list(res: ServerResponse, url: string, all: Obj[], query: URLSearchParams) {
    const limit = Math.min(Number(query.get("limit") ?? 10), 100);
    const after = query.get("starting_after");
    const start = after ? all.findIndex((o) => o.id === after) + 1 : 0;
    const data = all.slice(start, start + limit);
    send(res, 200, { object: "list", data, has_more: start + limit < all.length, url });
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = new URL(req.url ?? "/", "http://fake");
    const account = (req.headers["stripe-account"] as string | undefined) ?? null;
    const path = url.pathname;
    if (path.startsWith("/__control/")) return control(res, path, body);
    if (path === "/oauth/authorize" && req.method === "GET") {
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", issueConnectCode().code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    requests.push({ method: req.method ?? "GET", path, query: url.searchParams, account });
    const failure = failures.find(
      (f) => f.left > 0 && (typeof f.path === "string" ? path === f.path : f.path.test(path)),
    );
    if (failure) {
      failure.left -= 1;
      if (failure.failure === "network") return req.socket.destroy();
      const type = failure.failure === 429 ? "rate_limit_error" : "api_error";
      return send(res, failure.failure, { error: { type, message: `Injected ${failure.failure}` } });
    }
    if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`)
      return send(res, 401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided" },
      });
    if (path === "/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const grant = connectCodes.get(form.get("code") ?? "");
      if (form.get("grant_type") !== "authorization_code" || !grant)
        return send(res, 400, {
          error: "invalid_grant",
          error_description: `Authorization code does not exist: ${form.get("code")}`,
        });
      connectCodes.delete(form.get("code")!);
      return send(res, 200, {
        access_token: "sk_test_connected_fake",
        livemode: grant.livemode,
        refresh_token: "rt_fake",
        token_type: "bearer",
        stripe_publishable_key: "pk_test_fake",
        stripe_user_id: grant.account,
        scope: "read_write",
      });
    }
    if (path === "/oauth/deauthorize" && req.method === "POST") {
      const form = new URLSearchParams(body);
      deauthorized.push({ clientId: form.get("client_id"), account: form.get("stripe_user_id") });
      return send(res, 200, { stripe_user_id: form.get("stripe_user_id") });
    }
    const q = url.searchParams;
    let m: RegExpExecArray | null;
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(path))) {
      const s = visible(sessions.get(m[1]), account);
      if (!s) return notFound(res, "checkout.session");
      const expand = [...q.entries()].some(([k, v]) => k.startsWith("expand") && v === "data.price.product");
      const items = s.items.map((item) => {
        const price = item.price as Obj;
        return expand
          ? { ...item, price: { ...price, product: s.products.get(price.product as string) } }
          : item;
      });
      return list(res, path, items, q);
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const s = visible(sessions.get(m[1]), account);
      return s ? send(res, 200, s.obj) : notFound(res, "checkout.session");
    }
    if ((m = /^\/v1\/charges\/([^/]+)$/.exec(path))) {
      const c = visible(charges.get(m[1]), account);
      return c ? send(res, 200, c.obj) : notFound(res, "charge");
    }
    if ((m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const p = visible(intents.get(m[1]), account);
      if (!p) return notFound(res, "payment_intent");
      const expandCharge = [...q.entries()].some(([k, v]) => k.startsWith("expand") && v === "latest_charge");
      const charge = expandCharge ? charges.get(p.obj.latest_charge as string)?.obj : undefined;
      return send(res, 200, charge ? { ...p.obj, latest_charge: charge } : p.obj);
    }
    const billed = fake.billing.route(path, req.method === "POST" ? new URLSearchParams(body) : q, account);
    if (billed) return send(res, billed.status, billed.body);
    if (path === "/v1/refunds") {
      const gte = q.get("created[gte]");
      const lte = q.get("created[lte]");
      const all = refunds
        .filter((r) => r.account === account)
        .map((r) => r.obj)
        .filter((r) => (gte ? Number(r.created) >= Number(gte) : true))
        .filter((r) => (lte ? Number(r.created) <= Number(lte) : true))
        .sort((a, b) => Number(b.created) - Number(a.created) || String(b.id).localeCompare(String(a.id)));
      return list(res, path, all, q);
    }
    return notFound(res, path);
  }

  const fake: Omit<StripeFake, "url" | "env" | "stop"> = {
    get billing() {
      return billing;
    },
    issueConnectCode,
    requests,
    deauthorized,
    addCheckout(input) {
      const livemode = input.livemode ?? false;
      const built = input.items.map((i) => buildLineItem(i, livemode));
      const items = built.map((b) => b.item);
      const session = buildCheckoutSession(input, items);
      const products = new Map(built.map((b) => [b.product.id as string, b.product]));
      const account = input.account ?? null;
      sessions.set(session.id as string, { account, obj: session, items, products });
      const total = Number(session.amount_total);
      if (session.payment_intent)
        fake.addCharge({ account, paymentIntent: session.payment_intent as string, amount: total, livemode });
      return { session, items };
    },
    addCharge(input) {
      const charge = buildCharge(input);
      const account = input.account ?? null;
      charges.set(charge.id as string, { account, obj: charge });
      intents.set(input.paymentIntent, {
        account,
        obj: buildPaymentIntent(input.paymentIntent, input.amount, charge.id as string),
      });
      return charge;
    },
    chargeIdOf(paymentIntentId) {
      return (intents.get(paymentIntentId)?.obj.latest_charge as string | undefined) ?? null;
    },
    refund(chargeId, amount, created) {
      const stored = charges.get(chargeId);
      if (!stored) throw new Error(`fake: no charge ${chargeId}`);
      const charge = stored.obj;
      const refund = buildRefund(charge, amount, created ?? Math.floor(Date.now() / 1000));
      refunds.push({ account: stored.account, obj: refund });
      charge.amount_refunded = Number(charge.amount_refunded) + amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      const list = charge.refunds as { data: Obj[] };
      list.data = [refund, ...list.data];
      return { charge: structuredClone(charge), refund };
    },
    failNext(path, failure, times = 1) {
      failures.push({ path, failure, left: times });
    },
    clearFailures() {
      failures.length = 0;
    },
    sign(type, object, opts = {}) {
      const event = buildEvent(type, object, opts);
      const payload = JSON.stringify(event);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: FAKE_WEBHOOK_SECRET });
      return { event, payload, header };
    },
    checkoutEvent(session, opts = {}) {
      const account =
        opts.account === undefined ? (sessions.get(session.id as string)?.account ?? null) : opts.account;
      return fake.sign("checkout.session.completed", session, {
        ...opts,
        account,
        livemode: Boolean(session.livemode),
      });
    },
    refundEvent(charge, opts = {}) {
      const account =
        opts.account === undefined ? (charges.get(charge.id as string)?.account ?? null) : opts.account;
      return fake.sign("charge.refunded", charge, { ...opts, account, livemode: Boolean(charge.livemode) });
    },
  };

  const billing = createBilling({
    addCharge: (input) => fake.addCharge(input),
    refund: (chargeId, amount, created) => fake.refund(chargeId, amount, created),
    chargeIdOf: (id) => fake.chargeIdOf(id),
    sign: (type, object, opts) => fake.sign(type, object, opts),
  });

  /** For a process that only knows the URL: add a purchase or a refund, get the signed event. */
  function control(res: ServerResponse, path: string, body: string) {
    const input = body ? JSON.parse(body) : {};
    if (path === "/__control/checkout") {
      const { session } = fake.addCheckout(input as FakeCheckoutInput);
      return send(res, 200, fake.checkoutEvent(session));
    }
    if (path === "/__control/refund") {
      const charge = [...charges.values()].find((c) => c.obj.payment_intent === input.paymentIntent);
      if (!charge) return notFound(res, "charge");
      const { charge: updated } = fake.refund(charge.obj.id as string, Number(input.amount));
      return send(res, 200, fake.refundEvent(updated));
    }
    return notFound(res, path);
  }

  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      try {
        handle(req, res, body);
      } catch (error) {
        send(res, 500, { error: { type: "api_error", message: String(error) } });
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...fake,
    url,
    env: {
      STRIPE_API_BASE: url,
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_CONNECT_CLIENT_ID: FAKE_CONNECT_CLIENT_ID,
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": `req_fake_${Date.now()}`,
  });
  res.end(text);
}
