import { recipientPageHtml } from "@/components/ui/recipient-page";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { safeRedirectUrl } from "@/lib/forms/redirect-url";
import { verifySubmission } from "@/lib/forms/verify-submission";

const html = (status: number, title: string, message: string) =>
  new Response(recipientPageHtml(title, message), {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * Spec 4.3: confirms a staged submission. docs/decisions.md, "Double opt-in": unknown token 404, expired 410,
 * each a readable page; success redirects to the form's success URL or the confirmation page. The
 * person followed a link from an email, so a failure is a page too (with its reference).
 */
export const GET = publicRoute(
  {
    name: "form verification",
    refusal: (error) =>
      html(
        error.status,
        "Something went wrong",
        `Your details could not be confirmed just now. Please open the link again in a few minutes. ${error.message}`,
      ),
  },
  async (request) => {
    const token = new URL(request.url).searchParams.get("token");
    const result = await withService((db) => verifySubmission(db, token));
    switch (result.outcome) {
      case "unknown":
        return html(
          404,
          "This link is not valid",
          "The confirmation link is unknown or has already been used. If you sent the form again, use the link in the newest email.",
        );
      case "expired":
        return html(
          410,
          "This link has expired",
          "Confirmation links work for 24 hours. Send the form again to get a new link.",
        );
      case "verified":
        return Response.redirect(safeRedirectUrl(result.redirectUrl) ?? `${appUrl()}/verified`, 303);
    }
  },
);
