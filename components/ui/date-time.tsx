import { formatDate, formatDateTime, isoInstant, type Instant } from "@/lib/time/format";

/**
 * A moment on a page: the instant in `<time dateTime>`, the text in one of lib/time's formats
 * in the viewer's zone (MemberContext.timeZone), the same on the server and in the browser.
 */
export function DateTime({
  value,
  timeZone,
  dateOnly = false,
}: {
  value: Instant;
  timeZone: string;
  dateOnly?: boolean;
}) {
  return (
    <time dateTime={isoInstant(value)}>{(dateOnly ? formatDate : formatDateTime)(value, timeZone)}</time>
  );
}
