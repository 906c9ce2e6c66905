import type postgres from "postgres";
import { getSql } from "./client";

/** A transaction handle. Every domain function takes one and never opens its own. */
export type Db = postgres.TransactionSql;

/** The identity of a signed-in member, as Supabase's gateway would put it in the JWT. */
export interface Claims {
  sub: string;
  role: "authenticated";
  email?: string;
  exp?: number;
}

/**
 * Runs `fn` in a transaction as the signed-in member: `role authenticated` and the
 * request.jwt.claims setting, exactly as Supabase's API gateway does, so that the RLS
 * policies decide what the member sees. The claims travel as a bound parameter.
 */
export function withUser<T>(claims: Claims, fn: (db: Db) => Promise<T>): Promise<T> {
  return getSql().begin(async (tx) => {
    await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
    return fn(tx);
  }) as Promise<T>;
}

/**
 * Runs `fn` in a transaction as service_role with no claims: auth.uid() is null and
 * RLS is bypassed. For webhooks, public endpoints, sync jobs and the backfill script:
 * the spec's "service-level identity that has no user session".
 */
export function withService<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  return getSql().begin(async (tx) => {
    await tx`select set_config('role', 'service_role', true), set_config('request.jwt.claims', '', true)`;
    return fn(tx);
  }) as Promise<T>;
}
