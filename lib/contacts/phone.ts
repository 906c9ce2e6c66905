/**
 * Spec 4.10 step 1: US numbers are compared after stripping non-digits and the leading 1
 * of an 11-digit number, so "(202) 555-0143", "202-555-0143" and "+1 202 555 0143" are equal.
 */
export function normalizePhoneForCompare(phone: string | null | undefined): string {
  if (!phone) return "";
  const digits = phone.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/**
 * Spec 4.15 phone display: 10-digit and +1 E.164 US numbers display as (XXX) XXX-XXXX;
 * anything else as stored. The stored text is never changed.
 */
export function formatPhoneForDisplay(phone: string | null | undefined): string {
  if (!phone) return "";
  const m = /^(?:\+1)?(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : phone;
}
