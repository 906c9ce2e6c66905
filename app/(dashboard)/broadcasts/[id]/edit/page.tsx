import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BroadcastForm } from "@/components/email/broadcast-form";
import { previewTemplateAction, updateBroadcastAction } from "../../actions";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { audienceOptions } from "@/lib/email/broadcast-audience";
import { getBroadcast, senderOfRow } from "@/lib/email/broadcasts";
import { listSendingDomains } from "@/lib/email/sending-domains";
import { abTestInput, loadAbTest } from "@/lib/email/ab-test";
import { pageNonce } from "@/lib/http/page-nonce";

export const metadata: Metadata = { title: "Edit broadcast" };

/** A draft reopened in the editor (a plain-text one comes back as its text, now Markdown). */
export default async function EditBroadcastPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const data = await withUser(ctx.claims, async (db) => {
    const broadcast = await getBroadcast(db, { workspaceId, broadcastId: id });
    if (!broadcast) return null;
    const abTest = await loadAbTest(db, { workspaceId, broadcastId: id });
    return {
      broadcast,
      options: await audienceOptions(db, workspaceId),
      domains: await listSendingDomains(db, workspaceId),
      abTest: abTest && abTestInput(abTest),
    };
  });
  if (!data) notFound();
  const { broadcast, options, abTest, domains } = data;
  return (
    <div className="stack">
      <div className="topbar">
        <h1>Edit broadcast</h1>
        <Link href={`/broadcasts/${broadcast.id}`}>Back to the broadcast</Link>
      </div>
      <div className="card">
        {broadcast.status === "draft" ? (
          <BroadcastForm
            tags={options.tags}
            sources={options.sources}
            topics={options.topics}
            verifiedDomains={domains.filter((d) => d.status === "verified").map((d) => d.domain)}
            create={updateBroadcastAction.bind(null, broadcast.id)}
            preview={previewTemplateAction}
            nonce={await pageNonce()}
            initial={{
              subject: broadcast.subject,
              body: broadcast.body_markdown ?? broadcast.body_text,
              audience: broadcast.audience,
              abTest,
              sender: senderOfRow(broadcast),
              translations: broadcast.translations,
            }}
          />
        ) : (
          <p>Only a draft can be edited. Duplicate this broadcast to send a changed copy.</p>
        )}
      </div>
    </div>
  );
}
