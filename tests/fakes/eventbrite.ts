/**
 * A local stand-in for Eventbrite API v3 and its OAuth server: token exchange, the user's
 * organisations, organisation webhooks, events with ticket classes, orders with attendees,
 * attendees with their order, and continuation-token pagination. Tests arrange its state
 * through the helpers and read `requests` to see what the service called.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import type { EbAttendee, EbEvent, EbOrder, EbTicketClass, EbWebhook } from "@/lib/events/eventbrite/types";

export interface FakeEventbrite {
  url: string;
  env: Record<string, string>;
  stop(): Promise<void>;
  organization: { id: string; name: string };
  events: Map<string, EbEvent>;
  orders: Map<string, EbOrder & { attendee_ids: string[] }>;
  attendees: Map<string, EbAttendee>;
  webhooks: Map<string, EbWebhook>;
  tokens: Set<string>;
  requests: { method: string; path: string; query: string }[];
  /** page size of list endpoints (small, to exercise continuation tokens) */
  pageSize: number;
  /** the next N API calls answer 500 */
  failNext: number;
  /** the next N API calls hang until release() (to catch a worker in the middle of a fetch) */
  holdNext: number;
  /** API calls hanging now */
  held: number;
  release(): void;
  /** awaited before every request is answered (a test looks at the database meanwhile) */
  beforeAnswer?: (request: { method: string; path: string }) => Promise<void>;
  issueCode(): string;
  issueToken(): string;
  addEvent(init?: Partial<EbEvent> & { ticket_classes?: EbTicketClass[] }): EbEvent;
  addOrder(init: {
    eventId: string;
    buyer: { email: string; first_name?: string; last_name?: string };
    attendees: {
      email?: string;
      first_name?: string;
      last_name?: string;
      gross_cents?: number;
      ticket_class_id?: string;
    }[];
  }): { order: EbOrder; attendees: EbAttendee[] };
  refund(orderId: string, attendeeIds?: string[]): void;
  apiUrl(path: string): string;
}

let counter = 1000;
const nextId = () => String(++counter);
const money = (cents: number) => ({
  value: cents,
  currency: "USD",
  major_value: (cents / 100).toFixed(2),
  display: `$${(cents / 100).toFixed(2)}`,
});

export function paidClass(costCents: number, feeCents = 0, taxCents = 0): EbTicketClass {
  return {
    id: nextId(),
    name: `Ticket ${costCents}`,
    free: false,
    cost: money(costCents),
    fee: money(feeCents),
    tax: money(taxCents),
  };
}

export function freeClass(): EbTicketClass {
  return { id: nextId(), name: "Free", free: true, cost: null, fee: null, tax: null };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
  });
}

export async function startFakeEventbrite(): Promise<FakeEventbrite> {
  const codes = new Map<string, string>();
  const clientId = "fake-client-id";
  const clientSecret = "fake-client-secret";
  const waiting: (() => void)[] = [];
  const fake = {
    organization: { id: nextId(), name: "Fake Events Org" },
    events: new Map(),
    orders: new Map(),
    attendees: new Map(),
    webhooks: new Map(),
    tokens: new Set<string>(),
    requests: [],
    pageSize: 2,
    failNext: 0,
    holdNext: 0,
    held: 0,
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
  } as unknown as FakeEventbrite;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const page = <T>(res: ServerResponse, key: string, items: T[], continuation: string | null) => {
    const start = Number(continuation ?? 0);
    const slice = items.slice(start, start + fake.pageSize);
    const more = start + fake.pageSize < items.length;
    send(res, 200, {
      [key]: slice,
      pagination: { has_more_items: more, ...(more ? { continuation: String(start + fake.pageSize) } : {}) },
    });
  };

  const orderWithAttendees = (order: EbOrder & { attendee_ids: string[] }) => {
    const { attendee_ids, ...rest } = order;
    return { ...rest, attendees: attendee_ids.map((id) => fake.attendees.get(id)) };
  };
  const orderOnly = (id?: string) => {
    const order = id ? fake.orders.get(id) : undefined;
    if (!order) return null;
    const { attendee_ids: _ids, ...rest } = order;
    return rest;
  };

  async function api(req: IncomingMessage, res: ServerResponse, url: URL) {
    const token = req.headers.authorization?.replace(/^Bearer /, "");
    if (!token || !fake.tokens.has(token)) return send(res, 401, { error: "INVALID_AUTH" });
    if (fake.failNext > 0) {
      fake.failNext -= 1;
      return send(res, 500, { error: "INTERNAL_ERROR" });
    }
    if (fake.holdNext > 0) {
      fake.holdNext -= 1;
      fake.held += 1;
      await new Promise<void>((resolve) => waiting.push(resolve));
      fake.held -= 1;
    }
    const path = url.pathname.replace(/^\/v3/, "");
    const cont = url.searchParams.get("continuation");
    let m: RegExpMatchArray | null;
    if (path === "/users/me/organizations/") return page(res, "organizations", [fake.organization], cont);
    if ((m = path.match(/^\/organizations\/([^/]+)\/webhooks\/$/)) && req.method === "POST") {
      const body = JSON.parse((await readBody(req)) || "{}");
      const hook = { id: nextId(), endpoint_url: body.endpoint_url, actions: body.actions };
      fake.webhooks.set(hook.id, hook);
      return send(res, 200, hook);
    }
    if ((m = path.match(/^\/webhooks\/([^/]+)\/$/)) && req.method === "DELETE") {
      return fake.webhooks.delete(m[1]) ? send(res, 200, {}) : send(res, 404, { error: "NOT_FOUND" });
    }
    if ((m = path.match(/^\/organizations\/([^/]+)\/events\/$/)))
      return page(res, "events", [...fake.events.values()], cont);
    if ((m = path.match(/^\/events\/([^/]+)\/$/))) {
      const event = fake.events.get(m[1]);
      return event ? send(res, 200, event) : send(res, 404, { error: "NOT_FOUND" });
    }
    if ((m = path.match(/^\/events\/([^/]+)\/attendees\/$/))) {
      const list = [...fake.attendees.values()]
        .filter((a) => a.event_id === m![1])
        .map((a) => ({ ...a, order: orderOnly(a.order_id) }));
      return page(res, "attendees", list, cont);
    }
    if ((m = path.match(/^\/events\/([^/]+)\/attendees\/([^/]+)\/$/))) {
      const attendee = fake.attendees.get(m[2]);
      if (!attendee) return send(res, 404, { error: "NOT_FOUND" });
      return send(res, 200, { ...attendee, order: orderOnly(attendee.order_id) });
    }
    if ((m = path.match(/^\/orders\/([^/]+)\/$/))) {
      const order = fake.orders.get(m[1]);
      return order ? send(res, 200, orderWithAttendees(order)) : send(res, 404, { error: "NOT_FOUND" });
    }
    send(res, 404, { error: "NOT_FOUND", path });
  }

  async function oauth(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (url.pathname === "/oauth/authorize") {
      // auto-approves, as a signed-in Eventbrite user clicking "Allow" would
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", fake.issueCode());
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (url.pathname === "/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      const token = codes.get(form.get("code") ?? "");
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret || !token)
        return send(res, 400, { error: "invalid_grant" });
      codes.delete(form.get("code")!);
      return send(res, 200, { access_token: token, token_type: "bearer" });
    }
    send(res, 404, { error: "NOT_FOUND" });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    fake.requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.search });
    const handler = url.pathname.startsWith("/oauth/") ? oauth : api;
    Promise.resolve(fake.beforeAnswer?.({ method: req.method ?? "GET", path: url.pathname }))
      .then(() => handler(req, res, url))
      .catch((error) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  Object.assign(fake, {
    url: base,
    env: {
      EVENTBRITE_API_BASE: `${base}/v3`,
      EVENTBRITE_OAUTH_BASE: `${base}/oauth`,
      EVENTBRITE_CLIENT_ID: clientId,
      EVENTBRITE_CLIENT_SECRET: clientSecret,
    },
    stop: () => {
      fake.release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
    apiUrl: (path: string) => `${base}/v3${path}`,
    issueToken() {
      const token = `tok_${randomBytes(8).toString("hex")}`;
      fake.tokens.add(token);
      return token;
    },
    issueCode() {
      const code = `code_${randomBytes(8).toString("hex")}`;
      codes.set(code, fake.issueToken());
      return code;
    },
    addEvent(init: Partial<EbEvent> = {}) {
      const id = init.id ?? nextId();
      const start = new Date(Date.now() + 7 * 86_400_000);
      const event: EbEvent = {
        id,
        name: { text: `Event ${id}`, html: `Event ${id}` },
        description: { text: "About", html: "<p>About <script>alert(1)</script></p>" },
        url: `https://www.eventbrite.com/e/event-${id}`,
        start: { timezone: "America/New_York", utc: start.toISOString().replace(/\.\d{3}/, "") },
        end: {
          timezone: "America/New_York",
          utc: new Date(start.getTime() + 3_600_000).toISOString().replace(/\.\d{3}/, ""),
        },
        online_event: false,
        status: "live",
        venue: { name: "Town Hall", address: { localized_address_display: "1 Main St, Springfield" } },
        ticket_classes: [freeClass()],
        ...init,
      };
      fake.events.set(id, event);
      return event;
    },
    addOrder(init: Parameters<FakeEventbrite["addOrder"]>[0]) {
      const order = { id: nextId(), event_id: init.eventId, status: "placed", ...init.buyer };
      const attendees = init.attendees.map((a) => ({
        id: nextId(),
        event_id: init.eventId,
        order_id: order.id,
        status: "Attending",
        cancelled: false,
        refunded: false,
        profile: { email: a.email ?? null, first_name: a.first_name ?? null, last_name: a.last_name ?? null },
        costs: { gross: money(a.gross_cents ?? 0) },
        ticket_class_id: a.ticket_class_id ?? fake.events.get(init.eventId)?.ticket_classes?.[0]?.id ?? null,
      }));
      attendees.forEach((a) => fake.attendees.set(a.id, a));
      fake.orders.set(order.id, { ...order, attendee_ids: attendees.map((a) => a.id) });
      return { order, attendees };
    },
    refund(orderId: string, attendeeIds?: string[]) {
      const order = fake.orders.get(orderId)!;
      const ids = attendeeIds ?? order.attendee_ids;
      for (const id of ids)
        Object.assign(fake.attendees.get(id)!, { refunded: true, status: "Not Attending" });
      if (ids.length === order.attendee_ids.length) order.status = "refunded";
    },
  });
  return fake;
}
