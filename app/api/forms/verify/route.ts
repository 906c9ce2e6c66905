import { randomUUID } from "node:crypto";
import { recipientPageHtml } from "@/components/ui/recipient-page";
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
 * Spec 4.3: confirms a staged submission. DESIGN 5: unknown token 404, expired 410, each a
 * readable page; success redirects to the form's success URL or the confirmation page.
 */
export async function GET(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get("token");
  let result: Awaited<ReturnType<typeof verifySubmission>>;
  try {
    result = await withService((db) => verifySubmission(db, token));
  } catch (error) {
    const id = randomUUID();
    console.error(`form verification failed (request ${id})`, error);
    return html(
      500,
      "Something went wrong",
      `Your details could not be confirmed just now. Please open the link again in a few minutes (reference ${id}).`,
    );
  }
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
}
