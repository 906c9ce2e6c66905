import { recipientPageHtml } from "@/components/ui/recipient-page";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { safeRedirectUrl } from "@/lib/forms/redirect-url";
import { verifySubmission } from "@/lib/forms/verify-submission";
import { chooseLocale } from "@/lib/i18n/locales";
import { recipientLocale, withLang } from "@/lib/i18n/recipient-locale";
import { translator, type Translator } from "@/lib/i18n/translator";

const html = (status: number, t: Translator, title: string, message: string) =>
  new Response(recipientPageHtml(title, message, t.locale), {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The language of a page answered before the submission is known: `?lang=`, then `Accept-Language`. */
const requestTranslator = (request: Request) =>
  translator(
    chooseLocale({
      lang: new URL(request.url).searchParams.get("lang"),
      acceptLanguage: request.headers.get("accept-language"),
    }),
  );

/**
 * Spec 4.3: confirms a staged submission. docs/decisions.md, "Double opt-in": unknown token 404, expired 410,
 * each a readable page; success redirects to the form's success URL or the confirmation page. The
 * person followed a link from an email, so a failure is a page too (with its reference). The pages are
 * in the recipient's language (docs/decisions.md, "Recipient languages"): the contact's, the form's,
 * `Accept-Language`, the workspace's default; the confirmation page is handed it as `?lang=` when it
 * is not English.
 */
export const GET = publicRoute(
  {
    name: "form verification",
    refusal: (error, request) => {
      const t = requestTranslator(request);
      return html(
        error.status,
        t,
        t.t("verify.failedTitle"),
        t.t("verify.failedBody", { detail: error.message }),
      );
    },
  },
  async (request) => {
    const url = new URL(request.url);
    const token = url.searchParams.get("token");
    const result = await withService((db) => verifySubmission(db, token));
    if (result.outcome === "unknown") {
      const t = requestTranslator(request);
      return html(404, t, t.t("verify.unknownTitle"), t.t("verify.unknownBody"));
    }
    const locale = await withService((db) =>
      recipientLocale(db, {
        contactId: result.outcome === "verified" ? result.contactId : null,
        workspaceId: result.workspaceId,
        formLocale: result.outcome === "verified" ? result.formLocale : null,
        lang: url.searchParams.get("lang"),
        acceptLanguage: request.headers.get("accept-language"),
      }),
    );
    const t = translator(locale);
    if (result.outcome === "expired")
      return html(410, t, t.t("verify.expiredTitle"), t.t("verify.expiredBody"));
    const own = safeRedirectUrl(result.redirectUrl);
    const confirmed = withLang(`${appUrl()}/verified`, locale);
    return Response.redirect(own ?? confirmed, 303);
  },
);
