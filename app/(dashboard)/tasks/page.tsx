import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Tasks" };

export default async function TasksPage() {
  await requireMember();
  return (
    <>
      <h1>Tasks</h1>
      <div className="card empty">Nothing here yet.</div>
    </>
  );
}
