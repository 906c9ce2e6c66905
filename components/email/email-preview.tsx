/** The two widths the preview shows, desktop first. */
const FRAMES = [
  { width: "desktop", caption: "Desktop (600 px)" },
  { width: "mobile", caption: "Mobile (375 px)" },
] as const;

/**
 * An email as its recipient sees it, at a desktop client's 600 px and a phone's 375 px, in
 * sandboxed frames (no script, no same origin: docs/decisions.md, "A strict Content-Security-
 * Policy"). The email's `<style>` elements get the page's nonce, or the inherited policy drops them.
 */
export function EmailPreview({ html, nonce }: { html: string; nonce: string | null }) {
  const srcDoc = nonce ? html.replaceAll("<style", `<style nonce="${nonce}"`) : html;
  return (
    <div className="email-previews">
      {FRAMES.map((frame) => (
        <figure key={frame.width}>
          <figcaption>{frame.caption}</figcaption>
          <iframe
            className={`email-preview ${frame.width}`}
            title={`Message preview, ${frame.width} width`}
            sandbox=""
            srcDoc={srcDoc}
          />
        </figure>
      ))}
    </div>
  );
}
