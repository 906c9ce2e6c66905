import type { FormState } from "@/lib/http/form-state";

/**
 * The one way a form's outcome is shown: a refusal or a success, announced when it appears.
 * `id` lets a field or a dialog point at it (FormMessage gives the page's main form one).
 */
export function StatusMessage({ state, id }: { state: FormState; id?: string }) {
  return (
    <div id={id} role="status" aria-live="polite">
      {state.message && <div className="alert error">{state.message}</div>}
      {state.success && <div className="alert success">{state.success}</div>}
    </div>
  );
}
