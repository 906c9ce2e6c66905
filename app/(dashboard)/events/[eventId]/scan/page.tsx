import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { withService, withUser } from "@/lib/db/doors";
import { getEventById } from "@/lib/events/get-event-by-id";
import { ticketPublicKey } from "@/lib/events/tickets/ticket-keys";
import { isUuid } from "@/lib/ids/uuid";
import { TicketScanner } from "@/components/events/ticket-scanner";

export const metadata: Metadata = { title: "Scan tickets" };

/**
 * The door scanner (docs/decisions.md, "Signed tickets", "One check-in per registration"): any
 * member of the event's workspace. The page carries the workspace's public ticket key, so the
 * browser verifies tickets itself, with or without a connection; the check-ins go to the server
 * when it can reach it.
 */
export default async function ScanPage({ params }: { params: Promise<{ eventId: string }> }) {
  const { eventId } = await params;
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const result = isUuid(eventId)
    ? await withUser(ctx.claims, (db) => getEventById(db, { workspaceId, eventId }))
    : null;
  if (!result || "error" in result) notFound();
  const { event } = result.data;
  // the public half only: the private key never leaves the server
  const key = await withService((db) => ticketPublicKey(db, workspaceId));
  return (
    <>
      <p>
        <Link href={`/events/${event.id}`}>← {event.name}</Link>
      </p>
      <h1>Scan tickets</h1>
      <TicketScanner eventId={event.id} eventName={event.name} workspaceId={workspaceId} ticketKey={key} />
    </>
  );
}
