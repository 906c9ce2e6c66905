import { afterPosition, microsSql, type TimelineRow, type TimelineSource } from "./types";

/** How each step-run outcome reads on the timeline. */
const OUTCOME: Record<string, string> = {
  sent: "sent its email",
  skipped: "skipped",
  waiting: "waiting",
  branched: "branched",
  tagged: "added a tag",
  untagged: "removed a tag",
  exited: "left the campaign",
  completed: "completed the campaign",
  topic_joined: "joined a topic",
  topic_left: "left a topic",
  task_created: "created a task",
  field_updated: "updated a field",
  webhook_queued: "sent a webhook",
  notified: "notified a member",
  moved: "moved to a new version",
};

/**
 * The campaign steps the contact went through (campaign_step_runs, docs/decisions.md
 * "Campaigns as versioned step lists"), each with its campaign, step and outcome, and why an
 * enrollment left (a send the contact could not receive, a template that failed to render).
 */
export const campaignEntries: TimelineSource = {
  kind: "campaign",
  query: (db, q) => db`(
    select r.at, ${microsSql(db, "r.at")} as micros, 'campaign' as kind, r.id::text as id,
      'System' as author,
      jsonb_build_object('campaign', c.name, 'step', r.step_id, 'outcome', r.outcome, 'detail', r.detail) as d
    from public.campaign_step_runs r
    join public.campaign_enrollments e on e.id = r.enrollment_id and e.workspace_id = r.workspace_id
    left join public.campaigns c on c.id = r.campaign_id and c.workspace_id = r.workspace_id
    where e.contact_id = ${q.contactId} and r.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "campaign", "r.at", "r.id", q.before)}
    order by r.at desc, r.id desc
    limit ${q.limit})`,
  render: ({ d }: TimelineRow) => {
    const outcome = String(d.outcome ?? "");
    const detail = typeof d.detail === "string" ? d.detail : null;
    return {
      title: `Campaign ${String(d.campaign ?? "(deleted)")}: step "${String(d.step ?? "")}" ${OUTCOME[outcome] ?? outcome}`,
      facts: [
        outcome === "branched" && detail
          ? detail === "then"
            ? "Condition held: yes path"
            : "Condition did not hold: no path"
          : null,
        outcome !== "branched" && detail,
      ],
    };
  },
};
