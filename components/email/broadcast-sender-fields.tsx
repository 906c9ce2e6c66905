import Link from "next/link";
import { Field, SelectField } from "@/components/form-controls";
import type { BroadcastSender } from "@/lib/email/from-address";
import type { FormState } from "@/lib/http/form-state";

/**
 * The composer's Sender section (docs/decisions.md, "Sending domains and warm-up"): the broadcast's
 * own From name and address, on one of the workspace's verified domains only, and its reply-to.
 * Each is optional; left empty, the workspace's From and reply-to are used.
 */
export function BroadcastSenderFields({
  state,
  verifiedDomains,
  initial,
}: {
  state: FormState;
  /** the workspace's verified sending domains: the only ones a From may be on */
  verifiedDomains: string[];
  initial?: BroadcastSender;
}) {
  const noDomain = verifiedDomains.length === 0;
  // after a refusal the fields show what was sent (Field reads state.values); else the draft's own
  const value = (saved: string | null | undefined) => (state.values ? {} : { defaultValue: saved ?? "" });
  return (
    <fieldset className="stack">
      <legend>Sender</legend>
      <p className="hint">Leave these empty to use the workspace&apos;s From and reply-to addresses.</p>
      <fieldset className="stack" disabled={noDomain}>
        {noDomain && (
          <p className="hint">
            A From address of your own needs a verified sending domain: add one under{" "}
            <Link href="/settings/email">Settings → Email</Link>.
          </p>
        )}
        <Field
          label="From name (optional)"
          name="fromName"
          state={state}
          maxLength={70}
          {...value(initial?.fromName)}
        />
        <div className="row">
          <Field
            label="From address before the @ (optional)"
            name="fromLocal"
            placeholder="news"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            state={state}
            maxLength={64}
            {...value(initial?.fromLocal)}
          />
          <SelectField
            label="Domain"
            name="fromDomain"
            options={[{ value: "", label: "The workspace's From" }, ...verifiedDomains]}
            state={state}
            {...value(initial?.fromDomain)}
          />
        </div>
      </fieldset>
      <Field
        label="Reply-to (optional)"
        name="replyTo"
        type="email"
        placeholder="hello@example.org"
        state={state}
        maxLength={254}
        {...value(initial?.replyTo)}
      />
    </fieldset>
  );
}
