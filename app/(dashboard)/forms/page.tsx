import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Forms" };

export default async function FormsPage() {
  await requireMember();
  return (
    <>
      <h1>Forms</h1>
      <div className="card empty">Nothing here yet.</div>
    </>
  );
}
