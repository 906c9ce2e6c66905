import { randomUUID } from "node:crypto";
import { withService } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";
import { jsonError } from "@/lib/http/error-envelope";
import { FORM_BODY_LIMIT, readLimitedBody } from "@/lib/http/read-limited-body";
import { corsHeaders, preflightHeaders } from "@/lib/forms/cors";
import { findForm } from "@/lib/forms/find-form";
import { safeRedirectUrl } from "@/lib/forms/redirect-url";
import { submitForm, type SubmitFormResponse } from "@/lib/forms/submit-form";

type Context = { params: Promise<{ formId: string }> };

/** Spec 4.2: the public form submission (the pipeline lives in lib/forms/submit-form.ts). */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { formId } = await params;
  const origin = request.headers.get("origin");
  let result: SubmitFormResponse;
  try {
    result = await submitForm({
      formId,
      ip: clientIp(request.headers),
      origin,
      referer: request.headers.get("referer"),
      apiKey: request.headers.get("x-api-key") || new URL(request.url).searchParams.get("api_key"),
      contentType: request.headers.get("content-type"),
      body: await readLimitedBody(request, FORM_BODY_LIMIT),
    });
  } catch (error) {
    // A client that hangs up mid-body is not a server fault: nobody reads this answer.
    if (request.signal.aborted || (error as { code?: string }).code === "ECONNRESET")
      return jsonError(400, "The request was aborted.");
    const id = randomUUID();
    console.error(`form submission failed (request ${id})`, error);
    return jsonError(500, `Something went wrong (reference ${id}).`);
  }
  const headers = new Headers(corsHeaders(result.form?.allowed_domains ?? null, origin));
  switch (result.outcome) {
    case "rejected":
      if (result.retryAfter) headers.set("Retry-After", String(result.retryAfter));
      return jsonError(result.status, result.error, headers);
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
}

/** The CORS preflight of a fetch from an embedding page (spec 4.2 CORS). */
export async function OPTIONS(request: Request, { params }: Context): Promise<Response> {
  const { formId } = await params;
  const form = await withService((db) => findForm(db, formId));
  const origin = request.headers.get("origin");
  if (!form) return jsonError(404, "This form does not exist.");
  return new Response(null, { status: 204, headers: preflightHeaders(form.allowed_domains, origin) });
}
