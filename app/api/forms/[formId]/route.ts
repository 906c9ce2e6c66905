import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";
import { AppError } from "@/lib/errors/app-error";
import { jsonError } from "@/lib/http/error-envelope";
import { FORM_BODY_LIMIT, readLimitedBody } from "@/lib/http/read-limited-body";
import { corsHeaders, preflightHeaders } from "@/lib/forms/cors";
import { findForm } from "@/lib/forms/find-form";
import { safeRedirectUrl } from "@/lib/forms/redirect-url";
import { submitForm, UNKNOWN_FORM } from "@/lib/forms/flows/submit-form";

// The id is checked by submitForm and findForm (isUuid, without a query): a malformed one is
// the spec's 404 "This form does not exist." with the form's CORS headers, not a bare 404.
const params = z.object({ formId: z.string() });

/** Spec 4.2: the public form submission (the pipeline lives in lib/forms/submit-form.ts). */
export const POST = publicRoute({ name: "form submission", params }, async (request, { formId }) => {
  const origin = request.headers.get("origin");
  const result = await submitForm({
    formId,
    ip: clientIp(request.headers),
    origin,
    referer: request.headers.get("referer"),
    apiKey: request.headers.get("x-api-key") || new URL(request.url).searchParams.get("api_key"),
    contentType: request.headers.get("content-type"),
    body: await readLimitedBody(request, FORM_BODY_LIMIT),
  });
  const headers = new Headers(corsHeaders(result.form?.allowed_domains ?? null, origin));
  switch (result.outcome) {
    case "rejected":
      return jsonError(result.error, headers);
    case "honeypot":
      return Response.json({ success: true }, { headers });
    default: {
      const redirect = safeRedirectUrl(result.form?.success_redirect_url);
      if (redirect) {
        headers.set("Location", redirect);
        return new Response(null, { status: 302, headers });
      }
      return Response.json(
        result.outcome === "accepted"
          ? { success: true, contact_id: result.contactId }
          : { success: true, pending_verification: true },
        { headers },
      );
    }
  }
});

/** The CORS preflight of a fetch from an embedding page (spec 4.2 CORS). */
export const OPTIONS = publicRoute({ name: "form preflight", params }, async (request, { formId }) => {
  const form = await withService((db) => findForm(db, formId));
  const origin = request.headers.get("origin");
  if (!form) throw new AppError("not_found", UNKNOWN_FORM);
  return new Response(null, { status: 204, headers: preflightHeaders(form.allowed_domains, origin) });
});
