import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { withService } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { Translator } from "@/lib/i18n/translator";
import { portalTranslator } from "../portal-locale";

/** A query value as one string (Next gives arrays for repeated keys). */
export const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * What every portal page starts from: the workspace of the path (404 for an id that is not one),
 * and the translator of the request (`?lang=`, Accept-Language; portal-locale.ts says where the
 * contact's and the workspace's languages join).
 */
export async function portalPage(
  workspaceId: string,
  lang: string | undefined,
): Promise<{ workspaceName: string; t: Translator; lang: string | null }> {
  if (!isUuid(workspaceId)) notFound();
  const [workspace] = await withService(
    (db) => db<{ name: string }[]>`select name from public.workspaces where id = ${workspaceId}`,
  );
  if (!workspace) notFound();
  const t = portalTranslator({ lang, acceptLanguage: (await headers()).get("accept-language") });
  return { workspaceName: workspace.name, t, lang: lang ?? null };
}
