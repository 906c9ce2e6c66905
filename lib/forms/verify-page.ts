import { escapeHtml } from "@/lib/html/escape";

/** A small, readable, self-contained HTML page for the public verification outcomes. */
export function verifyPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f7f7f8;color:#1b1d21;margin:0;display:grid;place-items:center;min-height:100vh;padding:1rem}
main{background:#fff;border:1px solid #dcdfe4;border-radius:8px;padding:1.5rem;max-width:480px}
h1{font-size:1.35rem;margin:0 0 .75rem}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</main>
</body>
</html>`;
}
