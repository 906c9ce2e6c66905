import { redirect } from "next/navigation";
import { currentMember } from "@/lib/auth/context";

export default async function Home() {
  redirect((await currentMember()) ? "/contacts" : "/sign-in");
}
