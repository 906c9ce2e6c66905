import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { ListPager } from "@/components/ui/pagination";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { pageParam, pageSlice } from "@/lib/http/page-param";
import { listNotifications, notificationCounts } from "@/lib/notifications/list-notifications";
import { markAllNotificationsReadAction, markNotificationReadAction } from "./actions";

export const metadata: Metadata = { title: "Notifications" };

/** The member's notifications, newest first, a page at a time. */
export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<{ page?: string | string[] }>;
}) {
  const ctx = await requireMember();
  const page = pageParam((await searchParams).page);
  const who = { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId };
  const [items, { total, unread }] = await withReadUser(ctx.claims, (db) =>
    Promise.all([listNotifications(db, { ...who, ...pageSlice(page) }), notificationCounts(db, who)]),
  );
  return (
    <>
      <div className="topbar">
        <h1>Notifications</h1>
        {unread > 0 && (
          <form action={markAllNotificationsReadAction}>
            <button type="submit" className="secondary">
              Mark all read
            </button>
          </form>
        )}
      </div>
      {total === 0 ? (
        <div className="card empty">No notifications yet.</div>
      ) : items.length === 0 ? (
        <div className="card empty">No notifications on this page.</div>
      ) : (
        <ul className="stack" aria-label="Notifications" style={{ listStyle: "none", padding: 0 }}>
          {items.map((n) => (
            <li key={n.id} className="card stack" data-read={n.read}>
              <div className="row">
                {!n.read && <span className="badge subscribed">Unread</span>}
                <strong>{n.title}</strong>
                <span className="hint">
                  <DateTime value={n.created_at} timeZone={ctx.timeZone} />
                </span>
              </div>
              {n.body && <p>{n.body}</p>}
              <div className="row">
                {n.action_url?.startsWith("/") && <Link href={n.action_url}>{n.action_label ?? "Open"}</Link>}
                {!n.read && (
                  <form action={markNotificationReadAction}>
                    <input type="hidden" name="id" value={n.id} />
                    <button type="submit" className="link">
                      Mark read<span className="sr-only">: {n.title}</span>
                    </button>
                  </form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ListPager
        page={page}
        total={total}
        href={(p) => (p > 1 ? `/notifications?page=${p}` : "/notifications")}
      />
    </>
  );
}
