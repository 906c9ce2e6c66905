import type { FormState } from "@/lib/http/form-state";

/** What the account security actions answer (app/account/security/actions.ts). */
export interface SecurityState extends FormState {
  enrolment?: { secret: string; qrCode: string; factorId?: string };
  /** shown once, right after they are made */
  recoveryCodes?: string[];
}
