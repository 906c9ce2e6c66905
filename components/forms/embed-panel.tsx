import type { EmbedSnippets } from "@/lib/forms/embed-snippet";
import { CopyButton } from "./copy-button";

/** The copy-paste embed code: the endpoint, a plain HTML form and a fetch-based version. */
export function EmbedPanel({ snippets }: { snippets: EmbedSnippets }) {
  return (
    <div className="stack">
      <p>
        Endpoint: <code data-testid="form-endpoint">{snippets.endpoint}</code> (every field, answer and status
        in the <a href="/api-reference">API reference</a>)
      </p>
      <section className="stack" aria-labelledby="embed-html">
        <h3 id="embed-html" style={{ margin: 0 }}>
          Plain HTML form
        </h3>
        <p className="hint">
          Works without JavaScript. Visitors land on your success page, or see a JSON answer.
        </p>
        <pre className="snippet" tabIndex={0} aria-label="Plain HTML form code" data-testid="snippet-html">
          <code>{snippets.html}</code>
        </pre>
        <div>
          <CopyButton text={snippets.html} label="Copy HTML form" />
        </div>
      </section>
      <section className="stack" aria-labelledby="embed-script">
        <h3 id="embed-script" style={{ margin: 0 }}>
          Form with a small script
        </h3>
        <p className="hint">Sends the form in the background and shows the result on your page.</p>
        <pre className="snippet" tabIndex={0} aria-label="Form with script code" data-testid="snippet-script">
          <code>{snippets.script}</code>
        </pre>
        <div>
          <CopyButton text={snippets.script} label="Copy form with script" />
        </div>
      </section>
    </div>
  );
}
