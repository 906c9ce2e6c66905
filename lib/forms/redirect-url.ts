/**
 * Spec 2.1 success_redirect_url: an absolute http(s) URL set by an admin. Checked again
 * before every redirect, so a value written some other way can never send a visitor to a
 * javascript: or relative address.
 */
export function safeRedirectUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}
