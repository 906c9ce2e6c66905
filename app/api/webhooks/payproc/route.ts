import { receivePayprocWebhook } from "@/lib/payments/receive-payproc-webhook";

const MAX_BODY_BYTES = 1024 * 1024;

/** Spec 4.4: the payment processor's webhook. The raw body is needed to check the signature. */
export async function POST(request: Request) {
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_BODY_BYTES)
    return Response.json({ received: false, error: "The event is too large." }, { status: 413 });
  const reply = await receivePayprocWebhook(body, request.headers.get("stripe-signature"));
  return Response.json(reply.body, { status: reply.status });
}
