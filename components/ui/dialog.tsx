"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";

/**
 * The one modal dialog: a trigger button that opens a native <dialog> (showModal: focus moves
 * into it, Escape closes it, the page behind is inert, focus returns to the trigger). Its
 * content is mounted only while it is open, so each opening starts fresh (a form's earlier
 * refusal is not shown again); `close` is given to the content to close it itself, for
 * example when its action succeeds. Focus starts on the element marked `data-autofocus`, else
 * on the first focusable one. `accessibleName` names the trigger for assistive technology
 * where its visible label alone is ambiguous (a "Remove" on every row).
 */
export function Dialog({
  label,
  accessibleName,
  title,
  description,
  className,
  children,
}: {
  label: React.ReactNode;
  accessibleName?: string;
  title: React.ReactNode;
  /** what the dialog asks, read out with its title */
  description?: React.ReactNode;
  className?: string;
  children: (close: () => void) => React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-label={accessibleName}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-body` : undefined}
        onClose={close}
      >
        {open && (
          <div className="stack">
            <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
              {title}
            </h2>
            {description && <p id={`${id}-body`}>{description}</p>}
            {children(close)}
          </div>
        )}
      </dialog>
    </>
  );
}
