import type { EmbedSnippets } from "@/lib/forms/embed-snippet";
import { Section } from "@/components/ui/section";
import { CopyButton } from "./copy-button";

/** The copy-paste embed code: the endpoint, a plain HTML form and a fetch-based version. */
export function EmbedPanel({ snippets }: { snippets: EmbedSnippets }) {
  return (
    <div className="stack">
      <p>
        Endpoint: <code data-testid="form-endpoint">{snippets.endpoint}</code> (every field, answer and status
        in the <a href="/api-reference">API reference</a>)
      </p>
      <Snippet
        id="embed-html"
        title="Plain HTML form"
        hint="Works without JavaScript. Visitors land on your success page, or see a JSON answer."
        code={snippets.html}
        name="Plain HTML form code"
        testId="snippet-html"
        copyLabel="Copy HTML form"
      />
      <Snippet
        id="embed-script"
        title="Form with a small script"
        hint="Sends the form in the background and shows the result on your page."
        code={snippets.script}
        name="Form with script code"
        testId="snippet-script"
        copyLabel="Copy form with script"
      />
    </div>
  );
}

function Snippet(props: {
  id: string;
  title: string;
  hint: string;
  code: string;
  name: string;
  testId: string;
  copyLabel: string;
}) {
  return (
    <Section id={props.id} title={props.title} level={3} card={false}>
      <p className="hint">{props.hint}</p>
      <pre className="snippet" tabIndex={0} aria-label={props.name} data-testid={props.testId}>
        <code>{props.code}</code>
      </pre>
      <div>
        <CopyButton text={props.code} label={props.copyLabel} />
      </div>
    </Section>
  );
}
