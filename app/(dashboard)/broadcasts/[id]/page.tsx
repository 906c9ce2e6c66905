import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime } from "@/lib/time/format";
import { notFound } from "next/navigation";
import { BroadcastReport } from "@/components/email/broadcast-report";
import { AbTestReport } from "@/components/email/ab-test-report";
import { abVariantNumbers, loadAbTest } from "@/lib/email/ab-test";
import { broadcastSuppressionCounts } from "@/lib/email/broadcast-suppressions";
import { BroadcastScheduler } from "@/components/email/broadcast-scheduler";
import { BroadcastSender } from "@/components/email/broadcast-sender";
import { BroadcastTestSend } from "@/components/email/broadcast-test-send";
import { EmailPreview } from "@/components/email/email-preview";
import { renderForRecipient } from "@/lib/email/email-template";
import { memberSample } from "@/lib/email/test-send";
import { asFormAction } from "@/lib/http/form-state";
import { pageNonce } from "@/lib/http/page-nonce";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { audienceTags } from "@/lib/email/broadcast-audience";
import { listTopics } from "@/lib/consent/topics";
import { getBroadcastReport } from "@/lib/email/broadcast-stats";
import { getBroadcast, previewBroadcast } from "@/lib/email/broadcasts";
import { getEmailSettings } from "@/lib/email/email-settings";
import { broadcastProgress } from "@/lib/email/send-broadcast";
import {
  broadcastProgressAction,
  controlBroadcastAction,
  duplicateBroadcastAction,
  scheduleBroadcastAction,
  sendTestBroadcastAction,
  unscheduleBroadcastAction,
} from "../actions";

export const metadata: Metadata = { title: "Broadcast" };

export default async function BroadcastPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const data = await withUser(ctx.claims, async (db) => {
    const broadcast = await getBroadcast(db, { workspaceId, broadcastId: id });
    if (!broadcast) return null;
    const progress = (await broadcastProgress(db, { workspaceId, broadcastId: id }))!;
    return {
      broadcast,
      progress,
      // who can receive it is only shown while it can still be sent: a finished broadcast's
      // page does not count its audience again
      preview: progress.done
        ? null
        : await previewBroadcast(db, { workspaceId, audience: broadcast.audience }),
      options: { tags: await audienceTags(db, workspaceId), topics: await listTopics(db, workspaceId) },
      // what came of it, once anything was sent
      report:
        broadcast.status === "draft" ? null : await getBroadcastReport(db, { workspaceId, broadcastId: id }),
      tracking: (await getEmailSettings(db, workspaceId))?.email_tracking_enabled ?? false,
      abTest: await loadAbTest(db, { workspaceId, broadcastId: id }),
      abNumbers:
        broadcast.status === "draft" ? [] : await abVariantNumbers(db, { workspaceId, broadcastId: id }),
      suppressed:
        broadcast.status === "draft"
          ? null
          : await broadcastSuppressionCounts(db, { workspaceId, broadcastId: id }),
      // the message as a recipient sees it, the member's own name in its merge tags
      shown: renderForRecipient(
        { html: broadcast.body_html, text: broadcast.body_text },
        await memberSample(db, ctx.userId),
      ).html,
    };
  });
  if (!data) notFound();
  const { broadcast, preview, progress, options, report, tracking, shown, abTest, abNumbers, suppressed } =
    data;
  const skipped = preview?.skipped.reduce((sum, s) => sum + s.count, 0) ?? 0;
  const tagName = (tagId: string) => options.tags.find((t) => t.id === tagId)?.name ?? "(deleted tag)";
  const a = broadcast.audience;
  return (
    <div className="stack">
      <div className="topbar">
        <h1>{broadcast.subject}</h1>
        <div className="row">
          {broadcast.status === "draft" && <Link href={`/broadcasts/${broadcast.id}/edit`}>Edit</Link>}
          <form action={asFormAction(duplicateBroadcastAction.bind(null, broadcast.id))}>
            <button type="submit" className="secondary">
              Duplicate
            </button>
          </form>
          <Link href="/broadcasts">All broadcasts</Link>
        </div>
      </div>
      {broadcast.status === "paused" && broadcast.paused_reason && (
        <div role="alert" className="alert error">
          This broadcast paused itself: {broadcast.paused_reason}{" "}
          {broadcast.pause_kind === "reputation"
            ? "Sending more now puts the workspace's inbox placement at risk; an owner can resume it once the cause is understood."
            : "Nothing was lost: resume it to send the rest."}
        </div>
      )}
      {broadcast.status === "sending" && broadcast.warmup_until && (
        <div role="status" className="alert" data-testid="broadcast-warmup-wait">
          Waiting for the sending domain&apos;s warm-up: today&apos;s share of a new domain is sent, and the
          rest goes from {formatDateTime(broadcast.warmup_until, ctx.timeZone)}. Nothing needs doing; the
          daily share doubles each day the domain sends.
        </div>
      )}
      <section className="card stack" aria-labelledby="audience-heading">
        <h2 id="audience-heading">Audience</h2>
        <p>
          {a.tagIds.length
            ? `Contacts tagged ${a.tagMode} of: ${a.tagIds.map(tagName).join(", ")}`
            : "Every contact"}
          {a.excludeTagIds.length ? `, leaving out ${a.excludeTagIds.map(tagName).join(", ")}` : ""}
          {a.source ? `, source ${a.source}` : ""}
          {a.topicId
            ? `, subscribed to ${options.topics.find((t) => t.id === a.topicId)?.name ?? "a topic"}`
            : ""}
          .
        </p>
        {a.segmentId && (
          <p>
            Only the contacts of the segment <Link href={`/segments/${a.segmentId}`}>(see the segment)</Link>
            {a.segment === null ? ", whose filter is no longer valid: no one is reached" : ""}.
          </p>
        )}
        {preview && (
          <>
            <p data-testid="broadcast-eligible">
              <strong>{preview.eligible}</strong> of {preview.total} can receive it now.
            </p>
            {preview.skipped.length > 0 && (
              <table className="data">
                <caption>Skipped, and why</caption>
                <thead>
                  <tr>
                    <th scope="col">Reason</th>
                    <th scope="col">Contacts</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.skipped.map((s) => (
                    <tr key={s.reason}>
                      <td>{s.reason}</td>
                      <td>{s.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
        <BroadcastSender
          broadcastId={broadcast.id}
          eligible={preview?.eligible ?? 0}
          initial={progress}
          progressAction={broadcastProgressAction}
          controlAction={controlBroadcastAction}
        />
        <BroadcastScheduler
          broadcastId={broadcast.id}
          status={broadcast.status}
          scheduledAt={broadcast.scheduled_at}
          timeZone={ctx.timeZone}
          eligible={preview?.eligible ?? 0}
          skipped={skipped}
          scheduleAction={scheduleBroadcastAction}
          unscheduleAction={unscheduleBroadcastAction}
        />
      </section>
      {abTest &&
        (broadcast.status === "draft" ? (
          <section className="card stack" aria-labelledby="ab-heading">
            <h2 id="ab-heading">A/B test</h2>
            <p>
              {abTest.variants.length} variants; {abTest.share}% of the audience gets them first, and the
              winner by {abTest.metric} goes to the rest {abTest.decideAfterHours} hours later.
            </p>
            <ol type="A">
              {abTest.variants.map((v) => (
                <li key={v.position}>{v.subject}</li>
              ))}
            </ol>
          </section>
        ) : (
          <AbTestReport test={abTest} numbers={abNumbers} timeZone={ctx.timeZone} />
        ))}
      {report && <BroadcastReport report={report} tracking={tracking} />}
      {suppressed && (
        <p className="card" data-testid="broadcast-suppressions">
          This broadcast&apos;s hard bounces and complaints suppressed {suppressed.bounce} address
          {suppressed.bounce === 1 ? "" : "es"} for bouncing and {suppressed.complaint} for complaints.{" "}
          {suppressed.bounce + suppressed.complaint > 0 && (
            <Link href={`/suppressions?broadcast=${broadcast.id}`}>See them</Link>
          )}
        </p>
      )}
      <section className="card stack" aria-labelledby="message-heading">
        <h2 id="message-heading">Message</h2>
        <EmailPreview html={shown} nonce={await pageNonce()} />
        <BroadcastTestSend broadcastId={broadcast.id} action={sendTestBroadcastAction} />
      </section>
    </div>
  );
}
