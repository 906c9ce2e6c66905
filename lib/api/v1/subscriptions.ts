import { z } from "zod";
import { contactExists } from "@/lib/contacts/contact-exists";
import {
  listContactMemberships,
  listSubscriptions,
  SUBSCRIPTION_STATUSES,
  type MembershipRow,
  type SubscriptionRow,
} from "@/lib/payments/subscriptions/list-recurring";
import { defineOperation, invalid, notFound } from "./define";
import { idParams, iso, keysetList, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { ok } from "./route";

const MEMBERSHIP_STATUSES = ["active", "grace", "lapsed", "cancelled"] as const;

export const membershipSchema = z
  .object({
    id: z.string(),
    contact_id: z.string().nullable(),
    status: z.enum(MEMBERSHIP_STATUSES).meta({
      description:
        "active; grace (a renewal payment failed, Stripe still retrying); lapsed (ended for non-payment); " +
        "cancelled (ended on request).",
    }),
    member_since: timestamp,
    expires_at: timestamp.nullable(),
    plan: z.object({ id: z.string(), name: z.string(), kind: z.enum(["membership", "gift"]) }),
    subscription: z.object({
      payproc_subscription_id: z.string(),
      status: z.enum(SUBSCRIPTION_STATUSES).meta({ description: "As Stripe names it." }),
      cancel_at_period_end: z.boolean(),
      current_period_end: timestamp.nullable(),
    }),
  })
  .meta({ id: "Membership" });

export const subscriptionSchema = z
  .object({
    id: z.string(),
    contact_id: z.string().nullable(),
    plan: z.object({ id: z.string(), name: z.string() }),
    payproc_subscription_id: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES).meta({ description: "As Stripe names it." }),
    current_period_start: timestamp.nullable(),
    current_period_end: timestamp.nullable(),
    cancel_at_period_end: z.boolean(),
    canceled_at: timestamp.nullable(),
    ended_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Subscription" });

const membershipObject = (m: MembershipRow): z.output<typeof membershipSchema> => ({
  id: m.id,
  contact_id: m.contact_id,
  status: m.status as (typeof MEMBERSHIP_STATUSES)[number],
  member_since: m.member_since.toISOString(),
  expires_at: iso(m.expires_at),
  plan: { id: m.plan_id, name: m.plan_name, kind: m.plan_kind as "membership" | "gift" },
  subscription: {
    payproc_subscription_id: m.payproc_subscription_id,
    status: m.subscription_status as (typeof SUBSCRIPTION_STATUSES)[number],
    cancel_at_period_end: m.cancel_at_period_end,
    current_period_end: iso(m.current_period_end),
  },
});

const subscriptionObject = (s: SubscriptionRow): z.output<typeof subscriptionSchema> => ({
  id: s.id,
  contact_id: s.contact_id,
  plan: { id: s.plan_id, name: s.plan_name },
  payproc_subscription_id: s.payproc_subscription_id,
  status: s.status as (typeof SUBSCRIPTION_STATUSES)[number],
  current_period_start: iso(s.current_period_start),
  current_period_end: iso(s.current_period_end),
  cancel_at_period_end: s.cancel_at_period_end,
  canceled_at: iso(s.canceled_at),
  ended_at: iso(s.ended_at),
  created_at: s.created_at.toISOString(),
});

/** GET /api/v1/contacts/{id}/memberships (DESIGN section 9 "Recurring"). */
export const listForContact = defineOperation({
  method: "get",
  path: "/api/v1/contacts/{id}/memberships",
  operationId: "listContactMemberships",
  scope: "transactions:read",
  summary: "A contact's memberships",
  description:
    "The memberships the contact's Stripe subscriptions give, oldest first, each with its plan and the " +
    "subscription's state as Stripe names it.",
  params: idParams,
  query: pageQuerySchema,
  success: {
    status: 200,
    schema: listSchema(membershipSchema).meta({ id: "MembershipList" }),
    description: "A page of memberships.",
  },
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query }) {
    const contactId = params.id;
    mustExist(await contactExists(db, { workspaceId, contactId }));
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listContactMemberships(db, { workspaceId, contactId, ...page });
    return ok(await keysetList("memberships:member_since:asc", query, "timestamptz", read, membershipObject));
  },
});

/** GET /api/v1/subscriptions?status= (the Stripe subscriptions the workspace mirrors). */
export const list = defineOperation({
  method: "get",
  path: "/api/v1/subscriptions",
  operationId: "listSubscriptions",
  scope: "transactions:read",
  summary: "List subscriptions",
  description:
    "The workspace's Stripe subscriptions as last read from Stripe, oldest first; `status` (Stripe's word) " +
    "narrows to one state.",
  query: pageQuerySchema.extend({ status: z.enum(SUBSCRIPTION_STATUSES).optional() }),
  success: {
    status: 200,
    schema: listSchema(subscriptionSchema).meta({ id: "SubscriptionList" }),
    description: "A page of subscriptions.",
  },
  errors: [invalid],
  async handler({ db, workspaceId, query }) {
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listSubscriptions(db, { workspaceId, status: query.status, ...page });
    return ok(
      await keysetList("subscriptions:created_at:asc", query, "timestamptz", read, subscriptionObject),
    );
  },
});
