import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { AppError } from "@/lib/errors/app-error";
import { MESSAGES, type MessageKey, type Translator } from "./translator";

/**
 * The public endpoints' refusals in the caller's language. Domain code builds its refusals with
 * the English text (the spec's, kept as they are); the `errors.` messages of the English catalogue
 * are those texts, so a refusal's message is found there (exactly, or by its pattern: `{field}
 * must be at most {max} characters.`) and said again in the chosen language, a field's label
 * translated too. A message that is not in the catalogue stays as it is.
 */
interface Pattern {
  key: MessageKey;
  regex: RegExp;
  names: string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let patterns: {
  exact: Map<string, MessageKey>;
  patterns: Pattern[];
  labels: Map<string, MessageKey>;
} | null = null;

function compiled() {
  if (patterns) return patterns;
  const exact = new Map<string, MessageKey>();
  const list: Pattern[] = [];
  const labels = new Map<string, MessageKey>();
  for (const [key, message] of Object.entries(MESSAGES.en)) {
    if (key.startsWith("fields.")) labels.set(message, key as MessageKey);
    if (!key.startsWith("errors.")) continue;
    const elements = parse(message);
    if (elements.every((e) => e.type === TYPE.literal)) {
      exact.set(message, key as MessageKey);
      continue;
    }
    if (!elements.every((e) => e.type === TYPE.literal || e.type === TYPE.argument)) continue;
    const names: string[] = [];
    const source = elements
      .map((e) => {
        if (e.type === TYPE.literal) return escape(e.value);
        names.push(e.value);
        return "(.+?)";
      })
      .join("");
    list.push({ key: key as MessageKey, regex: new RegExp(`^${source}$`, "s"), names });
  }
  patterns = { exact, patterns: list, labels };
  return patterns;
}

/** An English refusal text said in the translator's language (as it is when not catalogued). */
export function localizeMessage(message: string, t: Translator): string {
  if (t.locale === "en") return message;
  const { exact, patterns: list, labels } = compiled();
  const key = exact.get(message);
  if (key) return t.t(key);
  for (const { key: patternKey, regex, names } of list) {
    const match = regex.exec(message);
    if (!match) continue;
    const values = Object.fromEntries(
      names.map((name, i) => {
        const value = match[i + 1];
        const label = labels.get(value);
        return [name, label ? t.t(label) : value];
      }),
    );
    return t.t(patternKey, values);
  }
  return message;
}

/** The same refusal (code, field, Retry-After, details) with its message in the caller's language. */
export function localizeError(error: AppError, t: Translator): AppError {
  const message = localizeMessage(error.message, t);
  if (message === error.message) return error;
  return new AppError(error.code, message, {
    field: error.field,
    retryAfter: error.retryAfter,
    details: error.details,
    cause: error.cause,
  });
}
