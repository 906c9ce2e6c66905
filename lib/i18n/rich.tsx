import { Children, type ReactNode } from "react";
import type { MessageKey, MessageValues, Translator } from "./translator";

/** FormatJS's formatMessage with tag functions (its types allow only string chunks for IntlShape<string>). */
const format = (t: Translator, key: MessageKey, values: Record<string, unknown>): unknown =>
  (t.intl.formatMessage as (descriptor: { id: string }, values: Record<string, unknown>) => unknown)(
    { id: key },
    values,
  );

/**
 * Messages with markup: `<b>…</b>` in a catalogue is the one tag, shown strong. Rendered as React
 * nodes on a page, as escaped HTML or plain text in an email; the values are always text
 * (a workspace's or a topic's name is never markup).
 */
export function rich(t: Translator, key: MessageKey, values: MessageValues = {}): ReactNode {
  const out = format(t, key, {
    ...values,
    b: (chunks: ReactNode[]) => <strong>{Children.toArray(chunks)}</strong>,
  }) as ReactNode;
  return Array.isArray(out) ? Children.toArray(out) : out;
}

const OPEN = "\u0001";
const CLOSE = "\u0002";

function marked(t: Translator, key: MessageKey, values: MessageValues): string {
  const clean = Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v.replace(/[\u0001\u0002]/g, "") : v]),
  );
  const out = format(t, key, {
    ...clean,
    b: (chunks: string[]) => `${OPEN}${chunks.join("")}${CLOSE}`,
  }) as string | string[];
  return Array.isArray(out) ? out.join("") : String(out);
}

/** Escapes text for HTML element content (a message is never put in an attribute). */
const escapeText = (text: string) =>
  text.replace(/[&<>]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;"));

/** A message as escaped HTML element content for an email: text and values escaped, `<b>` as `<strong>`. */
export function htmlMessage(t: Translator, key: MessageKey, values: MessageValues = {}): string {
  return escapeText(marked(t, key, values))
    .replaceAll(OPEN, "<strong>")
    .replaceAll(CLOSE, "</strong>");
}

/** A message as plain text (an email's text part): the markup left out. */
export function textMessage(t: Translator, key: MessageKey, values: MessageValues = {}): string {
  return marked(t, key, values).replaceAll(OPEN, "").replaceAll(CLOSE, "");
}
