import type { Metadata } from "next";
import { BroadcastForm } from "@/components/email/broadcast-form";
import { createBroadcastAction, previewTemplateAction } from "../actions";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { audienceOptions } from "@/lib/email/broadcast-audience";
import { pageNonce } from "@/lib/http/page-nonce";
import { listSegments } from "@/lib/segments/get-segment";
import { listSendingDomains } from "@/lib/email/sending-domains";

export const metadata: Metadata = { title: "New broadcast" };

export default async function NewBroadcastPage({
  searchParams,
}: {
  searchParams: Promise<{ segment?: string }>;
}) {
  const ctx = await requireMember();
  const { segment } = await searchParams;
  const [options, segments, domains] = await withUser(ctx.claims, (db) =>
    Promise.all([
      audienceOptions(db, ctx.workspace.workspaceId),
      listSegments(db, { workspaceId: ctx.workspace.workspaceId }),
      listSendingDomains(db, ctx.workspace.workspaceId),
    ]),
  );
  return (
    <div className="stack">
      <h1>New broadcast</h1>
      <div className="card">
        <BroadcastForm
          tags={options.tags}
          sources={options.sources}
          topics={options.topics}
          segments={segments}
          segmentId={segments.some((s) => s.id === segment) ? segment : undefined}
          verifiedDomains={domains.filter((d) => d.status === "verified").map((d) => d.domain)}
          create={createBroadcastAction}
          preview={previewTemplateAction}
          nonce={await pageNonce()}
          initial={{
            subject: "",
            body: 'Hello {{first_name | "friend"}},\n\nWrite your news here.',
            audience: { tagIds: [], tagMode: "any", excludeTagIds: [], source: undefined },
          }}
        />
      </div>
    </div>
  );
}
