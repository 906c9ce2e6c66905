import type { Metadata } from "next";
import QRCode from "qrcode";
import { withService } from "@/lib/db/doors";
import { loadTicketView } from "@/lib/events/tickets/resolve-ticket";
import { ticketKeyId } from "@/lib/events/tickets/ticket-token";
import { formatEventDateTime } from "@/lib/time/format";

export const metadata: Metadata = { title: "Your ticket", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * GET /tickets/{token} (DESIGN section 9, "Events"): the ticket a confirmed registration's email
 * links to: the event, the registrant's name and the QR code the door scans. Whoever holds the
 * link sees it (the token is the credential, as the email is); a token that does not verify, or
 * whose registration is cancelled or gone, gets the same page whatever the reason, so nothing
 * can be learnt by trying tokens.
 */
export default async function TicketPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = ticketKeyId(token) ? await withService((db) => loadTicketView(db, token)) : null;
  if (!view) {
    return (
      <main className="auth-page" id="main">
        <div className="card stack">
          <h1>Ticket not valid</h1>
          <p role="status">
            This ticket link is not valid: it may be incomplete, or the registration was cancelled. Open the
            link from your confirmation email again, or contact the organiser.
          </p>
        </div>
      </main>
    );
  }
  const { event, registration } = view;
  const name = [registration.first_name, registration.last_name].filter(Boolean).join(" ");
  const qr = await QRCode.toString(token, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return (
    <main className="auth-page ticket-page" id="main">
      <div className="card stack">
        <p className="hint">Your ticket</p>
        <h1>{event.title}</h1>
        {name && (
          <p>
            <strong>{name}</strong>
          </p>
        )}
        <p>
          {formatEventDateTime(event.start_time, event.timezone)}
          {event.location && (
            <>
              <br />
              {event.location}
            </>
          )}
        </p>
        <figure className="ticket-qr">
          <div
            role="img"
            aria-label={`QR code of your ticket for ${event.title}`}
            dangerouslySetInnerHTML={{ __html: qr }}
          />
          <figcaption className="hint">
            Show this code at the door. Turn your screen brightness up.
          </figcaption>
        </figure>
        {registration.checked_in_at && (
          <p role="status" className="alert success">
            Checked in {formatEventDateTime(registration.checked_in_at, event.timezone)}.
          </p>
        )}
      </div>
    </main>
  );
}
