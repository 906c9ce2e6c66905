import { LOCALES } from "@/lib/i18n/locales";
import { MESSAGES, type Translator } from "@/lib/i18n/translator";

/**
 * The frame of every portal page (DESIGN.md section 9): one column that fits a phone, the page's
 * language on its root (`lang`), and a language switch (`?lang=`, the first source chooseLocale reads).
 */
export function PortalFrame({
  t,
  title,
  path,
  children,
}: {
  t: Translator;
  title: string;
  /** this page's path, for the language links */
  path: string;
  children: React.ReactNode;
}) {
  return (
    <main className="auth-page" id="main" lang={t.locale}>
      <div className="card stack portal">
        <nav aria-label={t.t("portal.language")} className="row hint">
          {LOCALES.map((locale) => (
            <a
              key={locale}
              href={`${path}${path.includes("?") ? "&" : "?"}lang=${locale}`}
              hrefLang={locale}
              lang={locale}
              aria-current={locale === t.locale ? "true" : undefined}
            >
              {MESSAGES[locale]["common.languageName"]}
            </a>
          ))}
        </nav>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
