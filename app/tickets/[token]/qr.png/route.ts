import QRCode from "qrcode";
import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { resolveTicket } from "@/lib/events/tickets/resolve-ticket";

export const dynamic = "force-dynamic";

/**
 * GET /tickets/{token}/qr.png: the ticket's QR code as an image, for the confirmation email (mail
 * clients show no inline SVG or data: URLs). Only for a token that verifies: not a QR code
 * service for anything else. Every refusal is the same 404.
 */
export const GET = publicRoute(
  { name: "ticket qr code", params: z.object({ token: z.string() }) },
  async (_request, { token }) => {
    const claims = await withService((db) => resolveTicket(db, token));
    if (!claims) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
    const png = await QRCode.toBuffer(token, {
      type: "png",
      errorCorrectionLevel: "M",
      margin: 2,
      width: 480,
    });
    return new Response(new Uint8Array(png), {
      headers: { "content-type": "image/png", "cache-control": "private, max-age=86400" },
    });
  },
);
