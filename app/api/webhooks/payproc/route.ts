import { publicRoute } from "@/lib/adapters/public-route";
import { jsonError } from "@/lib/http/error-envelope";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";
import { receivePayprocWebhook } from "@/lib/payments/flows/receive-payproc-webhook";

/** Spec 4.4: the payment processor's webhook. The raw body is needed to check the signature. */
export const POST = publicRoute({ name: "payproc webhook" }, async (request) => {
  const body = await readLimitedText(request, WEBHOOK_BODY_LIMIT);
  if ("error" in body) return jsonError(body.status, body.error);
  const reply = await receivePayprocWebhook(body.text, request.headers.get("stripe-signature"));
  if (reply.status >= 400) return jsonError(reply.status, String(reply.body.error));
  return Response.json(reply.body, { status: reply.status });
});
