import type { Metadata } from "next";
import Link from "next/link";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";
import { requireMember } from "@/lib/auth/context";
import { builderOptions } from "@/lib/campaigns/dashboard";
import { withUser } from "@/lib/db/doors";
import { createCampaignAction } from "../actions";

export const metadata: Metadata = { title: "New campaign" };

/** A new campaign in the builder: an empty step list, saved as a draft or published at once. */
export default async function NewCampaignPage() {
  const ctx = await requireMember();
  const options = await withUser(ctx.claims, (db) => builderOptions(db, ctx.workspace.workspaceId));
  return (
    <div className="stack">
      <div className="topbar">
        <h1>New campaign</h1>
        <Link href="/campaigns">All campaigns</Link>
      </div>
      <CampaignBuilder
        action={createCampaignAction}
        initial={{ name: "", steps: [], goals: [], allow_reenrollment: true }}
        {...options}
      />
    </div>
  );
}
