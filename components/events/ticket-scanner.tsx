"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  ticketFromInput,
  ticketKeyId,
  verifyTicket,
  type TicketPublicKey,
} from "@/lib/events/tickets/ticket-token";

/**
 * The door scanner (docs/decisions.md, "Signed tickets", "One check-in per registration"). A
 * ticket is verified here, offline, with the workspace's public key, and refused in words when it
 * is forged or for another event. A genuine one joins this device's queue (localStorage, so a
 * reload or a dead connection loses nothing) with the time it was scanned; the queue goes to the
 * server at once when online, else when the connection comes back. The server decides: checked
 * in, or already checked in (by whom, when: the earliest scan of any device wins).
 */
interface QueuedScan {
  id: string;
  ticket: string;
  scanned_at: string;
  registration: string;
}

interface CheckInView {
  registration_id: string;
  checked_in_at: string;
  by: string | null;
  device_id: string | null;
}

type Outcome =
  | { id: string; status: "checked_in"; check_in: CheckInView }
  | { id: string; status: "already_checked_in"; message: string; check_in: CheckInView }
  | { id: string; status: "refused"; code: string; message: string };

interface Summary {
  registered: number;
  checked_in: number;
  recent: { registration_id: string; name: string; checked_in_at: string; by: string | null }[];
}

type Shown = { tone: "success" | "error" | "info"; text: string };

const POLL_MS = 5000;
const time = (iso: string) => new Date(iso).toLocaleTimeString();

function deviceId(): string {
  const stored = localStorage.getItem("crm:scanner-device");
  if (stored) return stored;
  const made = crypto.randomUUID();
  localStorage.setItem("crm:scanner-device", made);
  return made;
}

function describe(outcome: Outcome, myDevice: string): Shown {
  if (outcome.status === "checked_in")
    return { tone: "success", text: `Checked in at ${time(outcome.check_in.checked_in_at)}. Welcome!` };
  if (outcome.status === "already_checked_in") {
    const c = outcome.check_in;
    const who = c.device_id === myDevice ? "on this device" : c.by ? `by ${c.by}` : "on another device";
    return { tone: "error", text: `Already checked in at ${time(c.checked_in_at)} ${who}.` };
  }
  return { tone: "error", text: `Refused: ${outcome.message}` };
}

export function TicketScanner(props: {
  eventId: string;
  eventName: string;
  workspaceId: string;
  ticketKey: TicketPublicKey;
}) {
  const { eventId, eventName, workspaceId, ticketKey } = props;
  const queueKey = `crm:scans:${eventId}`;
  const [shown, setShown] = useState<Shown | null>(null);
  const [queue, setQueue] = useState<QueuedScan[]>([]);
  const [online, setOnline] = useState(true);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [camera, setCamera] = useState<"off" | "starting" | "on" | "unavailable">("off");
  const [manual, setManual] = useState("");
  const videoRef = useRef<HTMLVideoElement>(null);
  const scannerRef = useRef<{ stop(): void; destroy(): void } | null>(null);
  const lastRef = useRef<{ token: string; at: number } | null>(null);
  const syncing = useRef(false);
  const latestScan = useRef<string | null>(null);

  const readQueue = useCallback((): QueuedScan[] => {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(queueKey) ?? "[]");
      return Array.isArray(parsed) ? (parsed as QueuedScan[]) : [];
    } catch {
      return [];
    }
  }, [queueKey]);

  const writeQueue = useCallback(
    (next: QueuedScan[]) => {
      localStorage.setItem(queueKey, JSON.stringify(next));
      setQueue(next);
    },
    [queueKey],
  );

  const refresh = useCallback(async () => {
    try {
      const response = await fetch(`/api/events/${eventId}/check-ins`, { cache: "no-store" });
      if (response.ok) setSummary((await response.json()) as Summary);
    } catch {
      // offline: the counts wait for the connection
    }
  }, [eventId]);

  const sync = useCallback(async () => {
    if (syncing.current) return;
    const pending = readQueue();
    if (pending.length === 0) return;
    syncing.current = true;
    try {
      const response = await fetch(`/api/events/${eventId}/check-ins`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          device_id: deviceId(),
          scans: pending.slice(0, 200).map(({ id, ticket, scanned_at }) => ({ id, ticket, scanned_at })),
        }),
      });
      if (!response.ok) {
        setOnline(response.status < 500);
        if (response.status >= 500) return;
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        setShown({
          tone: "error",
          text: `The scans were not accepted: ${body?.error ?? response.statusText}`,
        });
        return;
      }
      setOnline(true);
      const { results } = (await response.json()) as { results: Outcome[] };
      const done = new Set(results.map((r) => r.id));
      writeQueue(readQueue().filter((s) => !done.has(s.id)));
      const mine = results.find((r) => r.id === latestScan.current);
      if (mine) setShown(describe(mine, deviceId()));
      void refresh();
    } catch {
      setOnline(false);
    } finally {
      syncing.current = false;
    }
  }, [eventId, readQueue, writeQueue, refresh]);

  const handle = useCallback(
    async (input: string) => {
      const token = ticketFromInput(input);
      if (!token) return;
      const now = Date.now();
      if (lastRef.current?.token === token && now - lastRef.current.at < 3000) return;
      lastRef.current = { token, at: now };
      const kid = ticketKeyId(token);
      if (!kid) {
        setShown({ tone: "error", text: "Refused: this is not a ticket code (incomplete or mistyped)." });
        return;
      }
      if (kid !== ticketKey.kid.toLowerCase()) {
        setShown({
          tone: "error",
          text: "Refused: this ticket was not issued by this organiser (another workspace's ticket, or forged).",
        });
        return;
      }
      const claims = await verifyTicket(token, ticketKey);
      if (!claims || claims.w !== workspaceId) {
        setShown({
          tone: "error",
          text: "Refused: this ticket is forged or altered (its signature does not verify).",
        });
        return;
      }
      if (claims.e !== eventId.toLowerCase()) {
        setShown({ tone: "error", text: `Refused: this ticket is for another event, not ${eventName}.` });
        return;
      }
      const pending = readQueue();
      const earlier = pending.find((s) => s.registration === claims.r);
      if (earlier) {
        setShown({
          tone: "error",
          text: `Already checked in at ${time(earlier.scanned_at)} on this device (waiting to sync).`,
        });
        return;
      }
      const scan: QueuedScan = {
        id: crypto.randomUUID(),
        ticket: token,
        scanned_at: new Date(now).toISOString(),
        registration: claims.r,
      };
      latestScan.current = scan.id;
      writeQueue([...pending, scan]);
      setShown({ tone: "info", text: "Genuine ticket. Checking in…" });
      if (navigator.onLine) await sync();
      if (!navigator.onLine || readQueue().some((s) => s.id === scan.id))
        setShown({
          tone: "success",
          text: "Genuine ticket: let them in. The check-in is kept on this device and sent as soon as the server is reached.",
        });
    },
    [eventId, eventName, workspaceId, ticketKey, readQueue, writeQueue, sync],
  );

  useEffect(() => {
    // what this device kept (localStorage exists in the browser only, after the first render)
    const restore = window.setTimeout(() => {
      setQueue(readQueue());
      setOnline(navigator.onLine);
      void sync();
      void refresh();
    }, 0);
    const back = () => {
      setOnline(true);
      void sync();
    };
    const gone = () => setOnline(false);
    window.addEventListener("online", back);
    window.addEventListener("offline", gone);
    const timer = window.setInterval(() => {
      if (!navigator.onLine) return;
      void sync();
      void refresh();
    }, POLL_MS);
    return () => {
      window.clearTimeout(restore);
      window.removeEventListener("online", back);
      window.removeEventListener("offline", gone);
      window.clearInterval(timer);
    };
  }, [readQueue, sync, refresh]);

  useEffect(() => () => scannerRef.current?.destroy(), []);

  async function startCamera() {
    if (!videoRef.current) return;
    setCamera("starting");
    try {
      const { default: QrScanner } = await import("qr-scanner");
      if (!(await QrScanner.hasCamera())) {
        setCamera("unavailable");
        return;
      }
      const scanner = new QrScanner(videoRef.current, (result) => void handle(result.data), {
        returnDetailedScanResult: true,
        preferredCamera: "environment",
        maxScansPerSecond: 5,
      });
      scannerRef.current = scanner;
      await scanner.start();
      setCamera("on");
    } catch {
      setCamera("unavailable");
    }
  }

  function stopCamera() {
    scannerRef.current?.stop();
    setCamera("off");
  }

  return (
    <div className="scanner stack">
      <p role="status" aria-live="polite">
        {summary ? `${summary.checked_in} of ${summary.registered} checked in` : "Counting check-ins…"}
        {" · "}
        {online ? "Online" : "Offline: scans are kept on this device"}
        {queue.length > 0 && ` · ${queue.length} waiting to sync`}
      </p>
      <div aria-live="assertive" role="alert" data-testid="scan-result">
        {shown && <p className={`alert ${shown.tone} scan-result`}>{shown.text}</p>}
      </div>
      <section className="card stack" aria-label="Camera">
        <video
          ref={videoRef}
          muted
          playsInline
          aria-label="Camera view for scanning ticket QR codes"
          hidden={camera !== "on" && camera !== "starting"}
        />
        {camera === "on" ? (
          <button type="button" className="secondary" onClick={stopCamera}>
            Stop camera
          </button>
        ) : (
          <button type="button" onClick={() => void startCamera()} disabled={camera === "starting"}>
            {camera === "starting" ? "Starting camera…" : "Scan with camera"}
          </button>
        )}
        {camera === "unavailable" && (
          <p className="hint">
            No camera could be used here (none, or permission refused): enter the code below.
          </p>
        )}
      </section>
      <form
        className="card stack"
        aria-label="Enter a ticket code"
        onSubmit={(e) => {
          e.preventDefault();
          lastRef.current = null;
          void handle(manual);
          setManual("");
        }}
      >
        <label>
          Ticket code or link
          <textarea
            name="ticket"
            value={manual}
            onChange={(e) => setManual(e.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="Paste the code or the ticket link"
          />
        </label>
        <button type="submit">Check in</button>
      </form>
      {summary && summary.recent.length > 0 && (
        <section aria-label="Latest check-ins">
          <h2>Latest check-ins</h2>
          <ul>
            {summary.recent.map((c) => (
              <li key={c.registration_id}>
                {c.name} · {time(c.checked_in_at)}
                {c.by && <span className="hint"> · {c.by}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
