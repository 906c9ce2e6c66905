import { generateKeyPairSync } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import type { TicketPublicKey } from "./ticket-token";

/**
 * A workspace's Ed25519 ticket key (docs/decisions.md, "Signed tickets"): made the first time a
 * ticket is signed or a scanner asks, kept in event_ticket_keys (service only), its private half
 * sealed (lib/crypto/secret-box.ts). Callers run as the service, scoped by the workspace they name.
 */
export interface TicketKey extends TicketPublicKey {
  workspaceId: string;
}

/** The workspace's key pair, made on first use; two first uses at once keep one of them. */
async function ensureKey(db: Db, workspaceId: string): Promise<void> {
  const [existing] = await db`select 1 from public.event_ticket_keys where workspace_id = ${workspaceId}`;
  if (existing) return;
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x!;
  const d = privateKey.export({ format: "jwk" }).d!;
  await db`
    insert into public.event_ticket_keys (workspace_id, public_key, private_key_sealed)
    values (${workspaceId}, ${x}, ${sealSecret(d)})
    on conflict (workspace_id) do nothing`;
}

/** The public half scanners verify with (made on first use). */
export async function ticketPublicKey(db: Db, workspaceId: string): Promise<TicketPublicKey> {
  await ensureKey(db, workspaceId);
  const [row] = await db<{ id: string; public_key: string }[]>`
    select id, public_key from public.event_ticket_keys where workspace_id = ${workspaceId}`;
  return { kid: row.id, x: row.public_key };
}

/** The public half if the workspace has a key yet (a read: v1 GETs may run on a read replica). */
export async function existingTicketPublicKey(db: Db, workspaceId: string): Promise<TicketPublicKey | null> {
  const [row] = await db<{ id: string; public_key: string }[]>`
    select id, public_key from public.event_ticket_keys where workspace_id = ${workspaceId}`;
  return row ? { kid: row.id, x: row.public_key } : null;
}

/** The key pair the server signs with: the private half never leaves this process. */
export async function ticketSigningKey(
  db: Db,
  workspaceId: string,
): Promise<TicketPublicKey & { d: string }> {
  await ensureKey(db, workspaceId);
  const [row] = await db<{ id: string; public_key: string; private_key_sealed: string }[]>`
    select id, public_key, private_key_sealed from public.event_ticket_keys where workspace_id = ${workspaceId}`;
  return { kid: row.id, x: row.public_key, d: openSecret(row.private_key_sealed) };
}

/** The key a ticket names (its `kid`), whichever workspace holds it; null when none does. */
export async function ticketKeyById(db: Db, kid: string): Promise<TicketKey | null> {
  const [row] = await db<{ id: string; workspace_id: string; public_key: string }[]>`
    select id, workspace_id, public_key from public.event_ticket_keys where id = ${kid}`;
  return row ? { kid: row.id, x: row.public_key, workspaceId: row.workspace_id } : null;
}
