import Link from "next/link";

/** The shell's bell: a link to /notifications whose name says how many are unread. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <Link href="/notifications" className="bell" aria-label={label} data-testid="notification-bell">
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      {unread > 0 && (
        <span className="badge bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
