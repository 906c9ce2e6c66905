/** JSON text as its value, or null when it is not JSON (a provider's raw webhook body). */
export function parseJson(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}
