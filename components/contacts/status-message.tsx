import type { FormState } from "@/lib/http/form-state";

/** A form's outcome, announced when it appears (for pages with several forms). */
export function StatusMessage({ state }: { state: FormState }) {
  return (
    <div role="status" aria-live="polite">
      {state.message && <div className="alert error">{state.message}</div>}
      {state.success && <div className="alert success">{state.success}</div>}
    </div>
  );
}
