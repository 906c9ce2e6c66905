import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { embedSnippets } from "@/lib/forms/embed-snippet";
import { captchaConfig } from "@/lib/forms/captcha";
import { startFakeCaptcha, type FakeCaptcha } from "../fakes/captcha";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm, submit } from "../helpers/forms";

const db = setupTestDatabase();
let fake: FakeCaptcha;
const saved: Record<string, string | undefined> = {};
const setEnv = (env: Record<string, string | undefined>) => {
  for (const [key, value] of Object.entries(env)) {
    if (!(key in saved)) saved[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
};
beforeAll(async () => {
  fake = await startFakeCaptcha("turnstile");
  setEnv(fake.env);
});
afterAll(async () => {
  setEnv(saved);
  await fake.stop();
});

async function captchaForm() {
  const ws = await createWorkspace(db.sql);
  const form = await createForm(db.sql, ws.id, { captcha_required: true, require_verification: false });
  return { ws, form };
}
const submissionsOf = (formId: string) =>
  db.sql`select payload from form_submissions where form_id = ${formId}`;

describe("unenforced captcha: captcha_required is enforced server-side", () => {
  test("without a token, or with a token the provider refuses, nothing is stored", async () => {
    const { form } = await captchaForm();
    const none = await submit(form.id, { json: { email: "bot@example.test" } });
    expect(none.status).toBe(400);
    const bad = await submit(form.id, {
      json: { email: "bot@example.test", "cf-turnstile-response": "fail-1" },
    });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({
      success: false,
      error: "The captcha could not be verified. Try again.",
      code: "captcha_failed",
    });
    expect(await submissionsOf(form.id)).toHaveLength(0);
    expect(fake.requests.at(-1)).toMatchObject({ secret: "captcha-secret-for-tests", response: "fail-1" });
  });

  test("a valid token is accepted once; the token is not stored with the submission", async () => {
    const { form } = await captchaForm();
    const token = `pass-${form.id}`;
    const ok = await submit(form.id, {
      json: { email: "human@example.test", "cf-turnstile-response": token },
    });
    expect(ok.status).toBe(200);
    const replay = await submit(form.id, {
      json: { email: "again@example.test", "cf-turnstile-response": token },
    });
    expect(replay.status).toBe(403);
    const rows = await submissionsOf(form.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toEqual({ email: "human@example.test" });
  });

  test("a request with the form key needs no captcha", async () => {
    const { form } = await captchaForm();
    const before = fake.requests.length;
    const res = await submit(form.id, {
      json: { email: "server@example.test" },
      headers: { "x-api-key": form.key },
    });
    expect(res.status).toBe(200);
    expect(fake.requests.length).toBe(before);
  });

  test("with no provider configured, a captcha form refuses submissions without the key (fail closed)", async () => {
    const { form } = await captchaForm();
    setEnv({ CAPTCHA_PROVIDER: undefined });
    try {
      const res = await submit(form.id, {
        json: { email: "x@example.test", "cf-turnstile-response": "pass-x" },
      });
      expect(res.status).toBe(503);
      expect(await submissionsOf(form.id)).toHaveLength(0);
    } finally {
      setEnv({ CAPTCHA_PROVIDER: "turnstile" });
    }
  });

  test("the embed snippet includes the provider's widget for a captcha form only", () => {
    const config = captchaConfig();
    const withCaptcha = embedSnippets(
      { id: "f1", success_redirect_url: null, captcha_required: true },
      config,
    );
    for (const snippet of [withCaptcha.html, withCaptcha.script]) {
      expect(snippet).toContain(
        '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer>',
      );
      expect(snippet).toContain('<div class="cf-turnstile" data-sitekey="site-key-for-tests"></div>');
    }
    const without = embedSnippets({ id: "f1", success_redirect_url: null, captcha_required: false }, config);
    expect(without.html).not.toContain("turnstile");
  });
});
