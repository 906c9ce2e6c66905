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
  { href: "/notifications", label: "Notifications" },
  { href: "/settings", label: "Settings" },
];

export function NavLinks() {
  const pathname = usePathname();
  return (
    <ul>
      {LINKS.map((link) => (
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
