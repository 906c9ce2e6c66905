"use client";

import { useEffect, useState } from "react";

const POLL_MS = 5000;

/**
 * The event page's live attendance (docs/decisions.md, "One check-in per registration"): checked
 * in of registered, polled from the scanner's counts while the page is open and visible.
 */
export function CheckInCounts(props: {
  eventId: string;
  initial: { registered: number; checkedIn: number };
}) {
  const [counts, setCounts] = useState(props.initial);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== "visible") return;
      try {
        const response = await fetch(`/api/events/${props.eventId}/check-ins`, { cache: "no-store" });
        if (!response.ok || stopped) return;
        const body = (await response.json()) as { registered: number; checked_in: number };
        setCounts({ registered: body.registered, checkedIn: body.checked_in });
      } catch {
        // offline: the last counts stay
      }
    };
    const timer = window.setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [props.eventId]);
  return (
    <span role="status" aria-live="polite">
      {counts.checkedIn} of {counts.registered} checked in
    </span>
  );
}
