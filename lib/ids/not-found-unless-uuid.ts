import { notFound } from "next/navigation";
import { isUuid } from "./uuid";

/** For pages and route segments: a malformed id is a 404 (Next's notFound()), never a 500. */
export function notFoundUnlessUuid(value: string): string {
  if (!isUuid(value)) notFound();
  return value;
}
