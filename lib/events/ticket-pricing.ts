/** Money as Eventbrite sends it: `value` in minor units (cents). */
export interface Money {
  value: number;
  currency?: string;
  major_value?: string;
  display?: string;
}

export interface TicketClassPrice {
  free?: boolean;
  donation?: boolean;
  cost?: Money | null;
  fee?: Money | null;
  tax?: Money | null;
}

export interface TicketPricing {
  /** numeric(10,2) as a string, or null when no class is paid */
  ticket_price: string | null;
  ticket_class_count: number;
}

export const cents = (money: Money | null | undefined) => Math.round(Number(money?.value ?? 0)) || 0;

/** A class is paid when it is neither free nor a donation and has a cost above zero. */
export function isPaidClass(ticketClass: TicketClassPrice): boolean {
  return !ticketClass.free && !ticketClass.donation && cents(ticketClass.cost) > 0;
}

/**
 * Spec 4.5, ticket pricing on import or sync: (cost + tax + fee) / 100 per paid class;
 * ticket_price is the lowest, ticket_class_count the number of paid classes.
 * Computed in integer cents.
 */
export function ticketPricing(classes: readonly TicketClassPrice[]): TicketPricing {
  const prices = classes.filter(isPaidClass).map((c) => cents(c.cost) + cents(c.tax) + cents(c.fee));
  if (prices.length === 0) return { ticket_price: null, ticket_class_count: 0 };
  return { ticket_price: centsToNumeric(Math.min(...prices)), ticket_class_count: prices.length };
}

export function centsToNumeric(value: number): string {
  return (value / 100).toFixed(2);
}

/** numeric(10,2) as postgres.js returns it ('12.50') to integer cents. */
export function numericToCents(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 100) : null;
}

/**
 * docs/decisions.md, "The public events API": 'Free' when there is no paid ticket class; '$X' with one paid
 * class; 'From $X' with more than one; X with two decimals.
 */
export function displayPrice(ticketPrice: string | number | null, ticketClassCount: number): string {
  const price = numericToCents(ticketPrice);
  if (!ticketClassCount || price === null) return "Free";
  const amount = `$${centsToNumeric(price)}`;
  return ticketClassCount > 1 ? `From ${amount}` : amount;
}
