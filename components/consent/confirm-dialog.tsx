"use client";

import { useRef } from "react";

/**
 * A button that opens a modal <dialog> (focus moves into it, Esc closes it) holding `children`,
 * typically a form whose submit confirms. `close` is given to children to close it themselves.
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
  const close = () => ref.current?.close();
  const titleId = `dialog-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <>
      <button type="button" className={className} onClick={() => ref.current?.showModal()}>
        {label}
      </button>
      <dialog ref={ref} aria-labelledby={titleId}>
        <div className="stack">
          <h2 id={titleId}>{title}</h2>
          {children(close)}
        </div>
      </dialog>
    </>
  );
}
