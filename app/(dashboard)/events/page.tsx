import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage() {
  await requireMember();
  return (
    <>
      <h1>Events</h1>
      <div className="card empty">Nothing here yet.</div>
    </>
  );
}
