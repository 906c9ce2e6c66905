import Link from "next/link";

/** The shell's bell: a link to /notifications whose name says how many are unread. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <Link href="/notifications" className="bell" aria-label={label} data-testid="notification-bell">
      <span aria-hidden="true">🔔</span>
      {unread > 0 && (
        <span className="badge bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
