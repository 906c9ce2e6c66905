/**
 * An email as its recipient sees it, at a desktop client's 600 px and a phone's 375 px, in
 * sandboxed frames (no script, no same origin: docs/decisions.md, "A strict Content-Security-
 * Policy"). The email's `<style>` elements get the page's nonce, or the inherited policy drops them.
 */
export function EmailPreview({ html, nonce }: { html: string; nonce: string | null }) {
  const srcDoc = nonce ? html.replaceAll("<style", `<style nonce="${nonce}"`) : html;
  return (
    <div className="email-previews">
      <figure>
        <figcaption>Desktop (600 px)</figcaption>
        <iframe
          className="email-preview desktop"
          title="Message preview, desktop width"
          sandbox=""
          srcDoc={srcDoc}
        />
      </figure>
      <figure>
        <figcaption>Mobile (375 px)</figcaption>
        <iframe
          className="email-preview mobile"
          title="Message preview, mobile width"
          sandbox=""
          srcDoc={srcDoc}
        />
      </figure>
    </div>
  );
}
