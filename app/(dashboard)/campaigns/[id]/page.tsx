import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BulkEnroll } from "@/components/campaigns/bulk-enroll";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";
import { CampaignControls } from "@/components/campaigns/campaign-controls";
import { CampaignStepNumbers } from "@/components/campaigns/step-numbers";
import { QueryNotices } from "@/components/ui/query-notices";
import { requireMember } from "@/lib/auth/context";
import { getCampaign } from "@/lib/campaigns/campaigns";
import { builderOptions, campaignStepNumbers, enrollmentCounts } from "@/lib/campaigns/dashboard";
import { withUser } from "@/lib/db/doors";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { bulkEnrollAction, controlCampaignAction, updateCampaignAction } from "../actions";

export const metadata: Metadata = { title: "Campaign" };

const STATUS_NOTE: Record<string, string> = {
  draft: "Draft: nothing runs until it is published.",
  active: "Active: enrolled contacts go through the published version.",
  paused: "Paused: no step runs until it is resumed; nothing is sent twice when it is.",
  archived: "Archived: its enrollments were cancelled and it takes no more.",
};

/** A campaign: its status and controls, the numbers per step, and the builder of its draft. */
export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string; published?: string }>;
}) {
  const { id } = await params;
  notFoundUnlessUuid(id);
  const query = await searchParams;
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const data = await withUser(ctx.claims, async (db) => {
    const campaign = await getCampaign(db, { workspaceId, campaignId: id });
    if (!campaign) return null;
    const [numbers, options, counts] = await Promise.all([
      campaignStepNumbers(db, { workspaceId, campaignId: id }),
      builderOptions(db, workspaceId),
      enrollmentCounts(db, { workspaceId, campaignId: id }),
    ]);
    return { campaign, numbers, options, counts };
  });
  if (!data) notFound();
  const { campaign, numbers, options, counts } = data;
  return (
    <div className="stack">
      <QueryNotices
        query={{ saved: query.saved, published: query.published }}
        notices={{ saved: "Draft saved.", published: "Campaign published." }}
      />
      <div className="topbar">
        <h1>{campaign.name}</h1>
        <Link href="/campaigns">All campaigns</Link>
      </div>
      {campaign.status === "paused" && campaign.pause_kind === "reputation" && (
        <div role="alert" className="alert error" data-testid="campaign-reputation-pause">
          This campaign paused itself: {campaign.paused_reason} Sending more now puts the workspace&apos;s
          inbox placement at risk; an owner can resume it once the cause is understood. Enrollments wait on
          their send step and nothing is sent twice.
        </div>
      )}
      <section className="card stack" aria-labelledby="status-heading">
        <h2 id="status-heading">Status</h2>
        <p data-testid="campaign-status">
          <span className="badge">{campaign.status}</span> {STATUS_NOTE[campaign.status]}
          {campaign.published_version ? ` Published version: ${campaign.published_version}.` : ""}
        </p>
        <p data-testid="campaign-counts">
          Enrollments: {counts.active} active, {counts.completed} completed, {counts.cancelled} cancelled,{" "}
          {counts.exited} exited.
        </p>
        <CampaignControls
          status={campaign.status}
          active={counts.active}
          pause={controlCampaignAction.bind(null, campaign.id, "pause")}
          resume={controlCampaignAction.bind(null, campaign.id, "resume")}
          archive={controlCampaignAction.bind(null, campaign.id, "archive")}
        />
        {campaign.status !== "archived" && (
          <BulkEnroll
            action={bulkEnrollAction.bind(null, campaign.id)}
            segments={options.segments}
            progress={campaign.bulk_enroll}
            segmentName={
              options.segments.find((s) => s.id === campaign.bulk_enroll?.segment_id)?.name ?? null
            }
          />
        )}
      </section>
      <CampaignStepNumbers steps={campaign.steps} numbers={numbers} />
      {campaign.status === "archived" ? (
        <p className="hint">An archived campaign&apos;s steps are kept as they were; it cannot be edited.</p>
      ) : (
        <section className="card stack" aria-labelledby="builder-heading">
          <h2 id="builder-heading">Builder</h2>
          <p className="hint">
            Saving changes the draft; publishing makes it the next version. Contacts already enrolled keep the
            version they started on, unless you choose to move them when publishing.
          </p>
          <CampaignBuilder
            action={updateCampaignAction.bind(null, campaign.id)}
            initial={{
              name: campaign.name,
              steps: campaign.steps,
              goals: campaign.goals,
              allow_reenrollment: campaign.allow_reenrollment,
              enroll_segment_id: campaign.enroll_segment_id,
            }}
            live={campaign.published_version !== null}
            {...options}
          />
        </section>
      )}
    </div>
  );
}
