/**
 * A short, bounded, in-process cache of promises: concurrent misses share one load, a failed
 * load is forgotten at once, and the oldest entry makes room when the map is full. One map per
 * name and per process, on globalThis: Next.js bundles route handlers and server actions
 * separately, and a module-level map would be one per bundle (a server action forgetting an
 * entry would not reach the route's copy).
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** one key, or every key */
  forget(key?: string): void;
}

const globalMaps = globalThis as unknown as {
  __crmTtlCaches?: Map<string, Map<string, { value: Promise<unknown>; expires: number }>>;
};

export function ttlCache<T>(name: string, options: { ttlMs: number; maxEntries: number }): TtlCache<T> {
  const caches = (globalMaps.__crmTtlCaches ??= new Map());
  if (!caches.has(name)) caches.set(name, new Map());
  const entries = caches.get(name)! as Map<string, { value: Promise<T>; expires: number }>;
  return {
    get(key, load) {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      if (hit) entries.delete(key);
      else if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      const value = load();
      entries.set(key, { value, expires: now + options.ttlMs });
      value.catch(() => entries.delete(key));
      return value;
    },
    forget(key) {
      if (key) entries.delete(key);
      else entries.clear();
    },
  };
}
