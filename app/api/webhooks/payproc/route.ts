import { publicRoute } from "@/lib/adapters/public-route";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";
import { receivePayprocWebhook } from "@/lib/payments/flows/receive-payproc-webhook";

/**
 * Spec 4.4: the payment processor's webhook. The raw body is needed to check the signature; a
 * refusal is thrown as an AppError and answered by the adapter.
 */
export const POST = publicRoute({ name: "payproc webhook" }, async (request) => {
  const body = await readLimitedText(request, WEBHOOK_BODY_LIMIT);
  return Response.json(await receivePayprocWebhook(body, request.headers.get("stripe-signature")));
});
