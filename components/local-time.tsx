"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * A timestamp in the viewer's own time zone. The server renders UTC (it does not know the
 * viewer's zone); the browser replaces it with local time on hydration.
 */
export function LocalTime({ value }: { value: Date | string }) {
  const date = new Date(value);
  const text = useSyncExternalStore(
    subscribe,
    () => date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
    () => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  );
  return <time dateTime={date.toISOString()}>{text}</time>;
}
