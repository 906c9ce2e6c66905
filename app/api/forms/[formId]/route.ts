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
import { chooseLocale } from "@/lib/i18n/locales";
import { localizeError } from "@/lib/i18n/localize-error";
import { translator } from "@/lib/i18n/translator";

// The id is checked by submitForm and findForm (isUuid, without a query): a malformed one is
// the spec's 404 "This form does not exist." with the form's CORS headers, not a bare 404.
const params = z.object({ formId: z.string() });

/**
 * Spec 4.2: the public form submission (the pipeline lives in lib/forms/submit-form.ts). A refusal's
 * message is in the submitter's language (docs/decisions.md, "Recipient languages"): `?lang=`, the
 * form's language, `Accept-Language`, the workspace's default; its code stays as it is.
 */
export const POST = publicRoute({ name: "form submission", params }, async (request, { formId }) => {
  const origin = request.headers.get("origin");
  const lang = new URL(request.url).searchParams.get("lang");
  const acceptLanguage = request.headers.get("accept-language");
  const body = await readLimitedBody(request, FORM_BODY_LIMIT).catch((error: unknown) => {
    // a body over the bound or not UTF-8 is refused before the form is read
    if (error instanceof AppError)
      throw localizeError(error, translator(chooseLocale({ lang, acceptLanguage })));
    throw error;
  });
  const result = await submitForm({
    formId,
    ip: clientIp(request.headers),
    origin,
    referer: request.headers.get("referer"),
    apiKey: request.headers.get("x-api-key") || new URL(request.url).searchParams.get("api_key"),
    contentType: request.headers.get("content-type"),
    body,
    language: { lang, acceptLanguage },
  });
  const headers = new Headers(corsHeaders(result.form?.allowed_domains ?? null, origin));
  switch (result.outcome) {
    case "rejected": {
      const t = translator(
        chooseLocale({
          lang,
          contactLocale: result.form?.locale,
          acceptLanguage,
          workspaceDefault: result.form?.workspace_locale,
        }),
      );
      return jsonError(localizeError(result.error, t), headers);
    }
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
