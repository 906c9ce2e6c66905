import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { WIDGET, type CaptchaConfig } from "./captcha";

export interface EmbedSnippets {
  endpoint: string;
  /** a plain HTML form: works without JavaScript (URL-encoded post, then the success URL or JSON) */
  html: string;
  /** the same form, sent with fetch as JSON, with an in-page status message */
  script: string;
}

/** The widget of a captcha_required form; it adds its token field (docs/decisions.md, "Captcha"). */
function captchaWidget(captcha: Pick<CaptchaConfig, "provider" | "siteKey"> | null): string {
  if (!captcha) return "";
  const widget = WIDGET[captcha.provider];
  return `  <script src="${widget.script}" async defer></script>
  <div class="${widget.className}" data-sitekey="${escapeHtml(captcha.siteKey)}"></div>
`;
}

function fields(): string {
  return `  <p><label>Email <input type="email" name="email" required autocomplete="email"></label></p>
  <p><label>First name <input type="text" name="first_name" autocomplete="given-name"></label></p>
  <p><label>Last name <input type="text" name="last_name" autocomplete="family-name"></label></p>
  <p><label>Phone <input type="tel" name="phone" autocomplete="tel"></label></p>
  <p><label><input type="checkbox" name="is_subscribed" value="true"> Email me news and offers</label></p>
  <div style="position:absolute;left:-10000px" aria-hidden="true">
    <label>Leave this field empty <input type="text" name="website_url" tabindex="-1" autocomplete="off"></label>
  </div>`;
}

/** A value inside an inline <script>: JSON with '<' escaped, so it can never close the tag. */
const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The copy-paste embed code of a form (spec 2.1 allowed domains, 4.2 the endpoint), pointing at the form's real
 * URL. The honeypot field website_url is hidden from people and assistive technology.
 */
export function embedSnippets(
  form: { id: string; success_redirect_url: string | null; captcha_required?: boolean },
  captcha: Pick<CaptchaConfig, "provider" | "siteKey"> | null = null,
): EmbedSnippets {
  const widget = form.captcha_required ? captchaWidget(captcha) : "";
  const endpoint = `${appUrl()}/api/forms/${form.id}`;
  const elementId = `crm-form-${form.id.slice(0, 8)}`;
  const html = `<form action="${escapeHtml(endpoint)}" method="post">
${fields()}
${widget}  <p><button type="submit">Sign up</button></p>
</form>`;
  const script = `<form id="${elementId}" action="${escapeHtml(endpoint)}" method="post">
${fields()}
${widget}  <p><button type="submit">Sign up</button></p>
  <p role="status" aria-live="polite" data-crm-status></p>
</form>
<script>
(function () {
  var form = document.getElementById(${scriptValue(elementId)});
  var successUrl = ${scriptValue(form.success_redirect_url)};
  var status = form.querySelector("[data-crm-status]");
  var button = form.querySelector("button[type=submit]");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var data = {};
    new FormData(form).forEach(function (value, key) { data[key] = value; });
    button.disabled = true;
    status.textContent = "Sending…";
    fetch(form.action, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
      redirect: "manual"
    }).then(function (res) {
      if (res.type === "opaqueredirect" && successUrl) { window.location.href = successUrl; return; }
      return res.json().then(function (body) {
        if (!body.success) { status.textContent = body.error || "Sorry, the form could not be sent."; return; }
        form.reset();
        status.textContent = body.pending_verification
          ? "Thank you! Check your email to confirm your details."
          : "Thank you, you are signed up!";
      });
    }).catch(function () {
      status.textContent = "Sorry, the form could not be sent.";
    }).then(function () {
      button.disabled = false;
      // a captcha token is single-use: a new one for the next try
      if (window.turnstile) window.turnstile.reset();
      if (window.hcaptcha) window.hcaptcha.reset();
    });
  });
})();
</script>`;
  return { endpoint, html, script };
}
