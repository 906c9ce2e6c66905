/** What Next hands an event's page (/events/{event_id} and /rsvp/{event_id}). */
export interface EventPageProps {
  params: Promise<{ eventId: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}

/** The event id and the query string of an event's page. */
export async function eventPageInput({ params, searchParams }: EventPageProps) {
  const [{ eventId }, query] = await Promise.all([params, searchParams]);
  return { eventId, query };
}
