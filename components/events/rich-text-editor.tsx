"use client";

import { useId, useRef, useState } from "react";

const COMMANDS = [
  { command: "bold", label: "Bold", text: "B" },
  { command: "italic", label: "Italic", text: "I" },
  { command: "insertUnorderedList", label: "Bulleted list", text: "• List" },
  { command: "insertOrderedList", label: "Numbered list", text: "1. List" },
] as const;

/**
 * A small rich-text field: an editable region (keyboard: Ctrl/Cmd+B, Ctrl/Cmd+I) with a
 * toolbar, kept in a hidden input as HTML. The server sanitises whatever arrives.
 */
export function RichTextEditor({
  label,
  name,
  defaultValue,
  hint,
  error,
}: {
  label: string;
  name: string;
  defaultValue?: string | null;
  hint?: string;
  error?: string;
}) {
  const id = useId();
  const editor = useRef<HTMLDivElement>(null);
  const [html, setHtml] = useState(defaultValue ?? "");
  const sync = () => setHtml(editor.current?.innerHTML ?? "");
  const run = (command: string, value?: string) => {
    editor.current?.focus();
    document.execCommand(command, false, value);
    sync();
  };
  const addLink = () => {
    const url = window.prompt("Link address (https://…)");
    if (url && /^(https?:\/\/|mailto:)/i.test(url.trim())) run("createLink", url.trim());
  };
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <span id={`${id}-label`} className="label">
        {label}
      </span>
      <div className="row" role="toolbar" aria-label={`${label} formatting`}>
        {COMMANDS.map((c) => (
          <button
            key={c.command}
            type="button"
            className="secondary"
            aria-label={c.label}
            onClick={() => run(c.command)}
          >
            {c.text}
          </button>
        ))}
        <button type="button" className="secondary" onClick={addLink}>
          Link
        </button>
      </div>
      <div
        ref={editor}
        className="rich-text"
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-labelledby={`${id}-label`}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        tabIndex={0}
        onInput={sync}
        onBlur={sync}
        dangerouslySetInnerHTML={{ __html: defaultValue ?? "" }}
      />
      <input type="hidden" name={name} value={html} />
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
