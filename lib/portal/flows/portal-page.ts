import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { withService } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { Translator } from "@/lib/i18n/translator";
import { portalTranslator } from "../portal-locale";
import type { PortalSession } from "../portal-session";

/** A query value as one string (Next gives arrays for repeated keys). */
export const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * What every portal page starts from: the workspace of the path (404 for an id that is not one),
 * and the translator of the request: `?lang=`, the signed-in contact's language, Accept-Language,
 * the workspace's default (portalLocale).
 */
export async function portalPage(
  workspaceId: string,
  lang: string | undefined,
  session: Pick<PortalSession, "contactLocale"> | null = null,
): Promise<{ workspaceName: string; t: Translator; lang: string | null }> {
  if (!isUuid(workspaceId)) notFound();
  const [workspace] = await withService(
    (db) => db<{ name: string; default_locale: string }[]>`
      select name, default_locale from public.workspaces where id = ${workspaceId}`,
  );
  if (!workspace) notFound();
  const t = portalTranslator({
    lang,
    contactLocale: session?.contactLocale,
    acceptLanguage: (await headers()).get("accept-language"),
    workspaceDefault: workspace.default_locale,
  });
  return { workspaceName: workspace.name, t, lang: lang ?? null };
}
