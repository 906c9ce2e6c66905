import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage() {
  await requireMember();
  return (
    <>
      <h1>Notifications</h1>
      <div className="card empty">Nothing here yet.</div>
    </>
  );
}
