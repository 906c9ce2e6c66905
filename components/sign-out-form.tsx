import { asFormAction, type PostAction } from "@/lib/http/form-state";

/** The "Sign out" button; the page hands in the action. */
export function SignOutForm({ action }: { action: PostAction }) {
  return (
    <form action={asFormAction(action)}>
      <button type="submit" className="secondary">
        Sign out
      </button>
    </form>
  );
}
