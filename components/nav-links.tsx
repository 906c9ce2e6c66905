"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Home" },
  { href: "/contacts", label: "Contacts" },
  { href: "/forms", label: "Forms" },
  { href: "/events", label: "Events" },
  { href: "/payments", label: "Payments" },
  { href: "/tasks", label: "Tasks" },
  { href: "/broadcasts", label: "Broadcasts" },
  { href: "/campaigns", label: "Campaigns" },
  { href: "/notifications", label: "Notifications" },
  { href: "/settings", label: "Settings" },
];

/** Owners and admins also see the background jobs (docs/decisions.md, "Sweeps and the jobs page"). */
const ADMIN_LINKS = [{ href: "/jobs", label: "Jobs" }];

export function NavLinks({ admin = false }: { admin?: boolean }) {
  const pathname = usePathname();
  return (
    <ul>
      {(admin ? [...LINKS, ...ADMIN_LINKS] : LINKS).map((link) => (
        <li key={link.href}>
          <Link
            href={link.href}
            aria-current={
              (link.href === "/" ? pathname === "/" : pathname.startsWith(link.href)) ? "page" : undefined
            }
          >
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
