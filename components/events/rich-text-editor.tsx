"use client";

import { useRef, useState } from "react";
import { FieldWrapper } from "@/components/form-controls";
import { sanitizeRichText } from "@/lib/html/sanitize";

const COMMANDS = [
  { command: "bold", label: "Bold", text: "B" },
  { command: "italic", label: "Italic", text: "I" },
  { command: "insertUnorderedList", label: "Bulleted list", text: "• List" },
  { command: "insertOrderedList", label: "Numbered list", text: "1. List" },
] as const;

/**
 * A small rich-text field: an editable region (keyboard: Ctrl/Cmd+B, Ctrl/Cmd+I) with a
 * toolbar, kept in a hidden input as HTML. What it shows has been through the one sanitiser
 * first (lib/html/sanitize): the stored description may have been written by any member
 * through the REST API, and the editor is opened by owners. The server sanitises whatever
 * arrives again.
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
  const editor = useRef<HTMLDivElement>(null);
  const [initial] = useState(() => sanitizeRichText(defaultValue) ?? "");
  const [html, setHtml] = useState(initial);
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
  return (
    <FieldWrapper label={label} hint={hint} error={error} labelAsText>
      {(control) => (
        <>
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
            {...control}
            tabIndex={0}
            onInput={sync}
            onBlur={sync}
            dangerouslySetInnerHTML={{ __html: initial }}
          />
          <input type="hidden" name={name} value={html} />
        </>
      )}
    </FieldWrapper>
  );
}
