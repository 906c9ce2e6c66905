import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError, refused, type Result } from "@/lib/errors/app-error";

/**
 * A workspace's email branding (docs/decisions.md, "Email templates and scheduled broadcasts"):
 * the layout's logo and colours, and the postal address every marketing email's footer carries.
 */
export interface Branding {
  name: string;
  brand_logo_url: string | null;
  brand_color: string;
  brand_accent_color: string;
  postal_address: string | null;
}

const hexColor = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, "Enter a colour as #rrggbb.");

const logoUrl = z
  .string()
  .trim()
  .max(500, "Keep the logo address under 500 characters.")
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "Enter an https:// address of the logo image.")
  .transform((value) => value || null);

/** The branding form's fields. */
export const brandingSchema = z.object({
  brandLogoUrl: logoUrl,
  brandColor: hexColor,
  brandAccentColor: hexColor,
  postalAddress: z
    .string()
    .trim()
    .max(500, "Keep the postal address under 500 characters.")
    .transform((value) => value || null),
});

const COLUMNS = (db: Db) => db`name, brand_logo_url, brand_color, brand_accent_color, postal_address`;

export async function loadBranding(db: Db, workspaceId: string): Promise<Branding> {
  const [row] = await db<Branding[]>`select ${COLUMNS(db)} from public.workspaces where id = ${workspaceId}`;
  if (!row) throw new AppError("not_found", "Workspace not found.");
  return row;
}

/** Saves the branding; RLS and the column grants let only owners and admins change it. */
export async function updateBranding(
  db: Db,
  workspaceId: string,
  input: z.output<typeof brandingSchema>,
): Promise<Result<Branding>> {
  const [row] = await db<Branding[]>`
    update public.workspaces set
      brand_logo_url = ${input.brandLogoUrl},
      brand_color = ${input.brandColor},
      brand_accent_color = ${input.brandAccentColor},
      postal_address = ${input.postalAddress}
    where id = ${workspaceId}
    returning ${COLUMNS(db)}`;
  return row ? { data: row } : refused("forbidden", "Only owners and admins can change the branding.");
}
