import { getSql } from "@/lib/db/client";
import type { Db } from "@/lib/db/doors";

/**
 * Tests only: a transaction as Supabase's `anon` role with no claims, i.e. a caller who is
 * not signed in reaching the database directly. The app has no such door (lib/db has two).
 */
export function withAnon<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  return getSql().begin(async (tx) => {
    await tx`set local role anon`;
    await tx`select set_config('request.jwt.claims', '', true)`;
    return fn(tx);
  }) as Promise<T>;
}
