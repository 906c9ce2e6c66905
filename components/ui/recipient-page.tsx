import { escapeHtml } from "@/lib/html/escape";

/**
 * The frame of the pages a recipient (not a member) sees: subscribe, unsubscribe, the form
 * confirmation and its outcomes. One centred card with a title, readable without the dashboard.
 */
const FRAME = { main: "auth-page", card: "card stack" } as const;

export function RecipientPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className={FRAME.main}>
      <div className={FRAME.card}>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * The same frame as a whole HTML document, for route handlers that must answer with their own
 * status (the verify link's 404 and 410, spec 4.3), which a page cannot. Next does not render
 * React in route handlers, so the markup above is written out here with the few rules of
 * app/globals.css it uses (the card, the centring, the type). `lang` is the page's language
 * (docs/decisions.md, "Recipient languages").
 */
export function recipientPageHtml(title: string, message: string, lang = "en"): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f7f7f8;color:#1b1d21;margin:0;line-height:1.45}
.auth-page{display:grid;place-items:center;min-height:100vh;padding:1rem;box-sizing:border-box}
.card{background:#fff;border:1px solid #dcdfe4;border-radius:8px;padding:1.25rem;width:100%;max-width:400px}
.stack{display:grid;gap:.9rem}
h1{font-size:1.5rem;margin:0}
p{margin:0}
</style>
</head>
<body>
<main class="${FRAME.main}">
<div class="${FRAME.card}">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</div>
</main>
</body>
</html>`;
}
