import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { withService } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { Translator } from "@/lib/i18n/translator";
import { portalTranslator, sessionTranslator } from "../portal-locale";
import type { PortalSession } from "../portal-session";

/** A query value as one string (Next gives arrays for repeated keys). */
export const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * What every portal page starts from: the workspace of the path (404 for an id that is not one),
 * and the translator of the request: `?lang=`, the signed-in contact's language, Accept-Language,
 * the workspace's default (portalLocale). A signed-in page has read the workspace's name and
 * language with its session, so it asks the database nothing more.
 */
export async function portalPage(
  workspaceId: string,
  lang: string | undefined,
  session: PortalSession | null = null,
): Promise<{ workspaceName: string; t: Translator; lang: string | null }> {
  if (!isUuid(workspaceId)) notFound();
  const acceptLanguage = (await headers()).get("accept-language");
  if (session)
    return {
      workspaceName: session.workspaceName,
      t: sessionTranslator(session, { lang, acceptLanguage }),
      lang: lang ?? null,
    };
  const [workspace] = await withService(
    (db) => db<{ name: string; default_locale: string }[]>`
      select name, default_locale from public.workspaces where id = ${workspaceId}`,
  );
  if (!workspace) notFound();
  const t = portalTranslator({ lang, acceptLanguage, workspaceDefault: workspace.default_locale });
  return { workspaceName: workspace.name, t, lang: lang ?? null };
}
