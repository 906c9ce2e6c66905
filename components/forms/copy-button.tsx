"use client";

import { useState } from "react";

/**
 * Copies text to the clipboard and says so (announced to screen readers). `accessibleName` tells
 * apart several Copy buttons on one page ("Copy the DKIM record's value").
 */
export function CopyButton({
  text,
  label = "Copy",
  accessibleName,
}: {
  text: string;
  label?: string;
  accessibleName?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={accessibleName}
        onClick={async () => {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        }}
      >
        {label}
      </button>
      <span role="status" aria-live="polite" className="hint" style={{ marginLeft: "0.5rem" }}>
        {copied ? "Copied." : ""}
      </span>
    </>
  );
}
