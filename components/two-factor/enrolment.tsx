"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormAction } from "@/lib/http/form-state";
import type { SecurityState } from "./types";
import { RecoveryCodes } from "./recovery-codes";
import { useStepUpAction } from "./step-up-prompt";

/**
 * Turning two-factor on: start (a new secret and its QR code, drawn on the server), scan or
 * type the key, confirm with the first code; the recovery codes are then shown once. Rendered
 * whether or not it is on (`children`: what the page shows then), so the codes survive the
 * page's refresh after the session cookie is reissued. Both steps need a fresh password (or
 * step-up): asked for below the form when the session is older than the step-up window.
 */
export function Enrolment({
  start,
  confirm,
  enabled,
  children,
}: {
  start: FormAction<SecurityState>;
  confirm: FormAction<SecurityState>;
  enabled: boolean;
  children: ReactNode;
}) {
  const [started, startAction, startStepUp] = useStepUpAction<SecurityState>(start, {});
  const [confirmed, confirmAction, confirmStepUp] = useStepUpAction<SecurityState>(confirm, {});
  if (confirmed.success)
    return (
      <div className="stack">
        <FormMessage state={confirmed} id="enrol-message" />
        {confirmed.recoveryCodes && <RecoveryCodes codes={confirmed.recoveryCodes} />}
        <p>
          <Link href="/">Continue to the dashboard</Link>
        </p>
      </div>
    );
  if (enabled) return children;
  const enrolment = started.enrolment;
  if (!enrolment)
    return (
      <>
        <form action={startAction} className="stack" aria-describedby="start-message">
          <FormMessage state={started} id="start-message" />
          <p>
            Use an authenticator app (1Password, Google Authenticator, Authy, …) for a code at each sign-in.
          </p>
          <div>
            <SubmitButton pendingLabel="Starting…">Set up two-factor authentication</SubmitButton>
          </div>
        </form>
        {startStepUp}
      </>
    );
  return (
    <>
      <form action={confirmAction} className="stack" noValidate aria-describedby="enrol-message">
        <FormMessage state={confirmed} id="enrol-message" />
        {enrolment.factorId && <input type="hidden" name="factorId" value={enrolment.factorId} />}
        <p>1. Scan this QR code with your authenticator app.</p>
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn on the server */}
        <img
          src={enrolment.qrCode}
          width={200}
          height={200}
          alt="QR code for your authenticator app; the key below is the same, to type by hand"
          style={{ maxWidth: "100%", height: "auto", background: "#fff" }}
        />
        <p>
          Or type this key: <code data-testid="totp-secret">{enrolment.secret}</code>
        </p>
        <p>2. Enter the 6-digit code the app shows.</p>
        <Field
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          state={confirmed}
          required
        />
        <div>
          <SubmitButton pendingLabel="Checking…">Turn on two-factor</SubmitButton>
        </div>
      </form>
      {confirmStepUp}
    </>
  );
}
