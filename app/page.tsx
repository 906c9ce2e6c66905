import { redirect } from "next/navigation";
import { getClaims } from "@/lib/auth/session";

// Signed in: the dashboard (which sends a user in no workspace to /no-workspace).
export default async function Home() {
  redirect((await getClaims()) ? "/contacts" : "/sign-in");
}
