"use client";

import { usePathname } from "next/navigation";
import { useId, useRef, useState } from "react";

/**
 * The dashboard's menu on a phone (docs/decisions.md, "Phone layout"): a disclosure, a button
 * with aria-expanded that shows and hides the panel it controls. From 768 px on the button is
 * hidden and the panel always shown (app/globals.css). The panel closes when the page changes
 * (it was opened on another path) and on Escape, giving the focus back to the button.
 */
export function MenuDisclosure({
  label = "Menu",
  bar,
  children,
}: {
  label?: string;
  /** shown beside the button on a phone, and above the panel on a wide screen */
  bar?: React.ReactNode;
  children: React.ReactNode;
}) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div
      className="menu"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpenOn(null);
          button.current?.focus();
        }
      }}
    >
      <div className="menu-bar">
        {bar}
        <button
          ref={button}
          type="button"
          className="menu-button secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          {label}
        </button>
      </div>
      <div id={panelId} className="menu-panel" data-open={open}>
        {children}
      </div>
    </div>
  );
}
