"use client";

import { useState } from "react";
import { FieldWrapper } from "@/components/form-controls";
import type { AbTest } from "@/lib/email/ab-test";
import type { FormState } from "@/lib/http/form-state";

const MAX_VARIANTS = 5;
const letter = (i: number) => String.fromCharCode(65 + i);
type Variant = AbTest["variants"][number];
const blank = (): Variant => ({ subject: "", preheader: "", senderName: "" });

/**
 * The composer's "A/B test" section (docs/decisions.md, "A/B tests of broadcasts"): 2 to 5
 * variants of subject, preheader and sender name, the test share (10–50%), the winner metric and
 * the hours until the decision. Off, nothing of it is sent with the form. The server checks it all
 * again (lib/email/ab-test.ts) and its messages show beside the fields.
 */
export function AbTestFields({ state, initial }: { state: FormState; initial?: AbTest | null }) {
  const [enabled, setEnabled] = useState(Boolean(initial) || state.values?.abEnabled === "on");
  const [variants, setVariants] = useState<Variant[]>(initial?.variants ?? [blank(), blank()]);
  // controlled, so a refused form keeps what was typed (React resets uncontrolled fields after an action)
  const [share, setShare] = useState(initial?.share ?? 20);
  const [metric, setMetric] = useState<string>(initial?.metric ?? "opens");
  const [hours, setHours] = useState<number | string>(initial?.decideAfterHours ?? 4);
  const errors = state.errors ?? {};
  const set = (i: number, patch: Partial<Variant>) =>
    setVariants((all) => all.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <fieldset className="stack" data-testid="ab-test-fields">
      <legend>A/B test</legend>
      <label className="check">
        <input
          type="checkbox"
          name="abEnabled"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />{" "}
        Test 2 to 5 variants on part of the audience first, then send the winner to the rest
      </label>
      {enabled && (
        <>
          {errors.abVariants && (
            <p role="alert" className="field-error">
              {errors.abVariants}
            </p>
          )}
          {variants.map((v, i) => (
            <fieldset key={i} className="stack">
              <legend>
                Variant {letter(i)}
                {i === 0 ? " (kept on a tie or too few events)" : ""}
              </legend>
              <FieldWrapper label="Subject">
                {(control) => (
                  <input
                    {...control}
                    name={`abSubject${i}`}
                    value={v.subject}
                    maxLength={200}
                    required
                    onChange={(e) => set(i, { subject: e.target.value })}
                  />
                )}
              </FieldWrapper>
              <FieldWrapper label="Preheader" hint="The line inboxes show after the subject (optional).">
                {(control) => (
                  <input
                    {...control}
                    name={`abPreheader${i}`}
                    value={v.preheader}
                    maxLength={200}
                    onChange={(e) => set(i, { preheader: e.target.value })}
                  />
                )}
              </FieldWrapper>
              <FieldWrapper
                label="Sender name"
                hint="Shown as who the email is from (optional; the address stays)."
              >
                {(control) => (
                  <input
                    {...control}
                    name={`abSenderName${i}`}
                    value={v.senderName}
                    maxLength={70}
                    onChange={(e) => set(i, { senderName: e.target.value })}
                  />
                )}
              </FieldWrapper>
              {variants.length > 2 && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setVariants((all) => all.filter((_, j) => j !== i))}
                >
                  Remove variant {letter(i)}
                </button>
              )}
            </fieldset>
          ))}
          {variants.length < MAX_VARIANTS && (
            <button
              type="button"
              className="secondary"
              onClick={() => setVariants((all) => [...all, blank()])}
            >
              Add a variant
            </button>
          )}
          <FieldWrapper
            label="Test share (percent of the audience)"
            hint="10 to 50. Split by a hash of contact and broadcast: the same contact always gets the same variant."
            error={errors.abShare}
          >
            {(control) => (
              <div className="row">
                <input
                  type="range"
                  min={10}
                  max={50}
                  step={1}
                  value={share}
                  aria-label="Test share slider"
                  onChange={(e) => setShare(Number(e.target.value))}
                />
                <input
                  {...control}
                  type="number"
                  name="abShare"
                  min={10}
                  max={50}
                  value={share}
                  onChange={(e) => setShare(Number(e.target.value))}
                />
              </div>
            )}
          </FieldWrapper>
          <FieldWrapper label="The winner is the variant with the most" error={errors.abMetric}>
            {(control) => (
              <select {...control} name="abMetric" value={metric} onChange={(e) => setMetric(e.target.value)}>
                <option value="opens">unique human opens (machine opens left out)</option>
                <option value="clicks">unique human clicks</option>
                <option value="revenue">revenue within the window</option>
              </select>
            )}
          </FieldWrapper>
          <FieldWrapper
            label="Decide after (hours)"
            hint="1 to 168, counted from when the test share is sent."
            error={errors.abHours}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                name="abHours"
                min={1}
                max={168}
                value={hours}
                onChange={(e) => setHours(e.target.value)}
              />
            )}
          </FieldWrapper>
        </>
      )}
    </fieldset>
  );
}
