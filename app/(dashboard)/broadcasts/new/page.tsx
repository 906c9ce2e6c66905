import type { Metadata } from "next";
import { BroadcastForm } from "@/components/email/broadcast-form";
import { createBroadcastAction, previewTemplateAction } from "../actions";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { audienceOptions } from "@/lib/email/broadcast-audience";
import { pageNonce } from "@/lib/http/page-nonce";

export const metadata: Metadata = { title: "New broadcast" };

export default async function NewBroadcastPage() {
  const ctx = await requireMember();
  const options = await withUser(ctx.claims, (db) => audienceOptions(db, ctx.workspace.workspaceId));
  return (
    <div className="stack">
      <h1>New broadcast</h1>
      <div className="card">
        <BroadcastForm
          tags={options.tags}
          sources={options.sources}
          topics={options.topics}
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
