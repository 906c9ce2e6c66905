"use client";

import { usePathname } from "next/navigation";
import { useRef, useState, useSyncExternalStore } from "react";

/** The panel's id: the no-script link's target (one menu per page). */
const PANEL_ID = "site-menu";

const noSubscription = () => () => {};

/**
 * The dashboard's menu on a phone (docs/decisions.md, "Phone layout"): a disclosure, a button
 * with aria-expanded that shows and hides the panel it controls. From 768 px on the button is
 * hidden and the panel always shown (app/globals.css). The panel closes when the page changes
 * (it was opened on another path) and on Escape, giving the focus back to the button.
 *
 * Without JavaScript (and until the script has run) the button is a link to the panel, which
 * CSS shows while it is the page's target (`:target`), with a link that closes it; every link
 * of the menu is reachable. Once the script runs, the button takes over.
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
  // false on the server and while hydrating (the same markup), true once the script runs
  const scripted = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const open = scripted && openOn === pathname;
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
        {scripted ? (
          <button
            ref={button}
            type="button"
            className="menu-button secondary"
            aria-expanded={open}
            aria-controls={PANEL_ID}
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            {label}
          </button>
        ) : (
          <a href={`#${PANEL_ID}`} className="menu-button button secondary">
            {label}
          </a>
        )}
      </div>
      <div id={PANEL_ID} className="menu-panel" data-open={scripted ? open : "link"}>
        {children}
        {!scripted && (
          <a href="#" className="menu-close">
            Close the menu
          </a>
        )}
      </div>
    </div>
  );
}
