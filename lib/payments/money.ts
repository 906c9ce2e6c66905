/**
 * Money in integer cents (docs/decisions.md, "What the spec leaves open"): numeric(10,2) arrives as strings
 * ('12.30') and go back as strings, so no amount ever passes through a binary float sum.
 */

/** A numeric(10,2) string (or a whole-cents number) as integer cents. */
export function toCents(value: string | number | null | undefined): number {
  if (value === null || value === undefined || value === "") return 0;
  if (typeof value === "number") return Math.round(value * 100);
  const match = /^(-?)(\d+)(?:\.(\d{1,2})\d*)?$/.exec(value.trim());
  if (!match) throw new Error(`Not an amount: ${value}`);
  const [, sign, whole, fraction = ""] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return sign ? -cents : cents;
}

/** Integer cents as the numeric(10,2) literal the database stores. */
export function centsToNumeric(cents: number): string {
  if (!Number.isInteger(cents)) throw new Error(`Not whole cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * A dollar amount typed by a person (spec 4.15: recordTransactionRefund takes dollars) as
 * whole cents, rounded, so 0.1 + 0.2 style float noise never overshoots a balance.
 */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** '$12.30', or '12.30 EUR' for other currencies. */
export function formatMoney(cents: number, currency = "usd"): string {
  const amount = centsToNumeric(Math.abs(cents));
  const sign = cents < 0 ? "-" : "";
  const [whole, fraction] = amount.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return currency.toLowerCase() === "usd"
    ? `${sign}$${grouped}.${fraction}`
    : `${sign}${grouped}.${fraction} ${currency.toUpperCase()}`;
}
