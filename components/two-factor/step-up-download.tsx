"use client";

import { useState, type ReactNode } from "react";
import { StepUpBox } from "./step-up-prompt";

/**
 * A download behind a step-up (privacy exports, CSV exports): a plain link without script; with
 * it, fetched, so that a `step_up_required` answer asks for the password or code and then
 * downloads, instead of leaving the page for an error.
 */
export function StepUpDownload({
  href,
  filename,
  className,
  children,
}: {
  href: string;
  filename: string;
  className?: string;
  children: ReactNode;
}) {
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setError(null);
    const response = await fetch(href);
    if (response.ok) {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await response.blob());
      // the server's name for it (content-disposition), else the caller's
      const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
      link.download = named?.[1] ?? filename;
      link.click();
      URL.revokeObjectURL(link.href);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as { error?: string; code?: string };
    if (body.code === "step_up_required") setWaiting(true);
    else setError(body.error ?? "The export could not be made.");
  }
  return (
    <>
      <a
        className={className}
        href={href}
        download
        onClick={(event) => {
          event.preventDefault();
          void download();
        }}
      >
        {children}
      </a>
      {error && (
        <span className="alert error" role="alert">
          {error}
        </span>
      )}
      {waiting && (
        <StepUpBox
          onConfirmed={() => {
            setWaiting(false);
            void download();
          }}
        />
      )}
    </>
  );
}
