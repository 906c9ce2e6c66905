"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * A button that opens a modal <dialog> (focus moves into it, Esc closes it) holding `children`,
 * typically a form whose submit confirms. `close` is given to children to close it themselves.
 * The content is mounted only while open, so each opening starts fresh.
 */
export function DialogButton({
  label,
  title,
  className,
  children,
}: {
  label: React.ReactNode;
  title: string;
  className?: string;
  children: (close: () => void) => React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {label}
      </button>
      <dialog ref={ref} aria-labelledby={titleId} onClose={close}>
        {open && (
          <div className="stack">
            <h2 id={titleId}>{title}</h2>
            {children(close)}
          </div>
        )}
      </dialog>
    </>
  );
}
