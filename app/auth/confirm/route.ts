import { NextResponse } from "next/server";
import { publicRoute } from "@/lib/adapters/public-route";
import { safeNextPath } from "@/lib/auth/account-links";
import { confirmSupabase } from "@/lib/auth/supabase-actions";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { appUrl } from "@/lib/config";

const TYPES = ["email", "signup", "recovery"] as const;

/**
 * Supabase Auth's confirmation and recovery emails link here (their templates use
 * `{{ .SiteURL }}/auth/confirm?token_hash={{ .TokenHash }}&type=email|recovery`). Only
 * with Supabase configured; the local provider has its own pages. The token hash is the proof.
 */
export const GET = publicRoute({ name: "auth confirm" }, async (request) => {
  const params = new URL(request.url).searchParams;
  const type = TYPES.find((t) => t === params.get("type"));
  const tokenHash = params.get("token_hash");
  if (!supabaseConfigured() || !type || !tokenHash || tokenHash.length > 200)
    return NextResponse.redirect(`${appUrl()}/sign-in`, 303);
  const ok = await confirmSupabase(tokenHash, type);
  const next = type === "recovery" ? "/reset-password" : (safeNextPath(params.get("next")) ?? "/");
  return NextResponse.redirect(`${appUrl()}${ok ? next : "/sign-in"}`, 303);
});
