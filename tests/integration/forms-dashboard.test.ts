import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { automationActionSchema } from "@/lib/automations/automation-action";
import { createFormAutomation } from "@/lib/automations/create-form-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";
import { listFormAutomations } from "@/lib/automations/list-form-automations";
import { createForm } from "@/lib/forms/create-form";
import { deleteForm } from "@/lib/forms/delete-form";
import { embedSnippets } from "@/lib/forms/embed-snippet";
import { formSettingsSchema } from "@/lib/forms/form-settings";
import { listFormSubmissions } from "@/lib/forms/list-form-submissions";
import { getForm, listForms } from "@/lib/forms/list-forms";
import { rotateFormKey } from "@/lib/forms/rotate-form-key";
import { updateForm } from "@/lib/forms/update-form";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { submit } from "../helpers/forms";

const db = setupTestDatabase();

const settings = (input: Record<string, string>) => {
  const parsed = formSettingsSchema.safeParse({ name: "Signup", ...input });
  if (!parsed.success) throw new Error(parsed.error.issues[0].message);
  return parsed.data;
};

describe("forms in the dashboard (spec 2.1, 5.4)", () => {
  test("5.4: an admin creates and edits a form; the settings are stored as validated", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const { id } = await withUser(admin.claims, (tx) =>
      createForm(tx, {
        workspaceId: ws.id,
        settings: settings({
          allowed_domains: "Shop.Example.com\n*.brand.test, https://www.other.test/page",
          require_verification: "on",
          success_redirect_url: "https://shop.example.com/thanks",
        }),
      }),
    );
    const [row] = await db.sql`select * from forms where id = ${id}`;
    expect(row).toMatchObject({
      workspace_id: ws.id,
      name: "Signup",
      allowed_domains: ["shop.example.com", "*.brand.test", "www.other.test"],
      require_verification: true,
      captcha_required: false,
      success_redirect_url: "https://shop.example.com/thanks",
      api_key: null,
    });
    const saved = await withUser(admin.claims, (tx) =>
      updateForm(tx, {
        workspaceId: ws.id,
        formId: id,
        settings: settings({ name: "Renamed", captcha_required: "on" }),
      }),
    );
    expect(saved).toBe(true);
    expect(
      (
        await db.sql`select name, require_verification, captcha_required, allowed_domains from forms where id = ${id}`
      )[0],
    ).toEqual({
      name: "Renamed",
      require_verification: false,
      captcha_required: true,
      allowed_domains: [],
    });
  });

  test("5.4: a member reads forms but cannot create, edit, rotate keys or delete", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const { id } = await withUser(ws.owner.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({}) }),
    );
    const seen = await withUser(member.claims, (tx) => listForms(tx, ws.id));
    expect(seen.map((f) => f.id)).toEqual([id]);
    await expect(
      withUser(member.claims, (tx) => createForm(tx, { workspaceId: ws.id, settings: settings({}) })),
    ).rejects.toThrow(/row-level security/);
    expect(
      await withUser(member.claims, (tx) =>
        updateForm(tx, { workspaceId: ws.id, formId: id, settings: settings({ name: "X" }) }),
      ),
    ).toBe(false);
    expect(
      await withUser(member.claims, (tx) => rotateFormKey(tx, { workspaceId: ws.id, formId: id })),
    ).toBeNull();
    expect(await withUser(member.claims, (tx) => deleteForm(tx, { workspaceId: ws.id, formId: id }))).toBe(
      false,
    );
    expect((await db.sql`select name, api_key from forms where id = ${id}`)[0]).toEqual({
      name: "Signup",
      api_key: null,
    });
  });

  test("5.4: an admin of another workspace can neither see nor change a form", async () => {
    const a = await createWorkspace(db.sql);
    const b = await createWorkspace(db.sql);
    const { id } = await withUser(a.owner.claims, (tx) =>
      createForm(tx, { workspaceId: a.id, settings: settings({}) }),
    );
    expect(await withUser(b.owner.claims, (tx) => getForm(tx, { workspaceId: a.id, formId: id }))).toBeNull();
    expect(await withUser(b.owner.claims, (tx) => getForm(tx, { workspaceId: b.id, formId: id }))).toBeNull();
    expect(
      await withUser(b.owner.claims, (tx) =>
        updateForm(tx, { workspaceId: b.id, formId: id, settings: settings({ name: "Pwned" }) }),
      ),
    ).toBe(false);
    expect(await withUser(b.owner.claims, (tx) => deleteForm(tx, { workspaceId: a.id, formId: id }))).toBe(
      false,
    );
    expect((await db.sql`select name from forms where id = ${id}`)[0].name).toBe("Signup");
  });

  test("2.1: the editor refuses bad wildcard syntax, non-http(s) success URLs and an empty name", () => {
    const problem = (input: Record<string, string>) => {
      const r = formSettingsSchema.safeParse({ name: "Ok", ...input });
      return r.success ? null : r.error.issues[0];
    };
    expect(problem({ allowed_domains: "*.com" })?.path).toEqual(["allowed_domains"]);
    expect(problem({ allowed_domains: "shop.*.com" })?.path).toEqual(["allowed_domains"]);
    expect(problem({ success_redirect_url: "javascript:alert(1)" })?.path).toEqual(["success_redirect_url"]);
    expect(problem({ success_redirect_url: "/thanks" })?.path).toEqual(["success_redirect_url"]);
    expect(problem({ name: "  " })?.path).toEqual(["name"]);
    expect(
      problem({ allowed_domains: "*.shop.com\nlocalhost:3000", success_redirect_url: "http://x.test/ok" }),
    ).toBeNull();
  });

  test("5.1: a generated key is returned once, stored as its digest, and rotation retires the old key", async () => {
    const ws = await createWorkspace(db.sql);
    const { id } = await withUser(ws.owner.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({ allowed_domains: "shop.test" }) }),
    );
    const first = await withUser(ws.owner.claims, (tx) =>
      rotateFormKey(tx, { workspaceId: ws.id, formId: id }),
    );
    const second = await withUser(ws.owner.claims, (tx) =>
      rotateFormKey(tx, { workspaceId: ws.id, formId: id }),
    );
    expect(first!.key).not.toBe(second!.key);
    const [row] = await db.sql`select api_key from forms where id = ${id}`;
    expect(row.api_key).toMatch(/^[0-9a-f]{64}$/);
    const old = await submit(id, {
      json: { email: "k1@example.test" },
      headers: { "x-api-key": first!.key },
    });
    expect(old.status).toBe(403);
    const fresh = await submit(id, {
      json: { email: "k2@example.test" },
      headers: { "x-api-key": second!.key },
    });
    expect(fresh.status).toBe(200);
  });

  test("2.2: the submissions list shows payload, IP, type and time, newest first, 25 a page, with pending ones", async () => {
    const ws = await createWorkspace(db.sql);
    const { id } = await withUser(ws.owner.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({ require_verification: "on" }) }),
    );
    for (let i = 0; i < 27; i++)
      await submit(id, { json: { email: `p${i}@example.test`, i }, ip: `192.0.2.${i + 1}` });
    await submit(id, { json: { email: "p0@example.test" } }); // existing contact, verification pending
    const member = await addMember(db.sql, ws.id, "member");
    const first = await withUser(member.claims, (tx) =>
      listFormSubmissions(tx, { workspaceId: ws.id, formId: id, page: 1 }),
    );
    expect(first.total).toBe(27);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]).toMatchObject({
      contact_email: "p26@example.test",
      payload: { email: "p26@example.test", i: 26 },
      ip_address: "192.0.2.27",
      submission_type: "direct",
    });
    expect(first.pending.map((p) => p.email)).toEqual(["p0@example.test"]);
    const second = await withUser(member.claims, (tx) =>
      listFormSubmissions(tx, { workspaceId: ws.id, formId: id, page: 2 }),
    );
    expect(second.items.map((s) => s.contact_email)).toEqual(["p1@example.test", "p0@example.test"]);
    const [summary] = await withUser(member.claims, (tx) => listForms(tx, ws.id));
    expect(summary).toMatchObject({ submissions: 27, pending: 1 });
  });

  test("embed snippet: the embed snippet posts to the form's real URL, hides the honeypot and escapes the success URL", () => {
    const form = {
      id: "7d4a2c1e-8b9f-4a3d-9c2e-1f0a2b3c4d5e",
      success_redirect_url: "https://x.test/</script><b>",
    };
    const s = embedSnippets(form);
    expect(s.endpoint).toMatch(/^https?:\/\/[^/]+\/api\/forms\/7d4a2c1e-8b9f-4a3d-9c2e-1f0a2b3c4d5e$/);
    expect(s.html).toContain(`action="${s.endpoint}"`);
    expect(s.html).toContain('name="website_url"');
    expect(s.html).toContain('aria-hidden="true"');
    expect(s.script).toContain("fetch(form.action");
    expect(s.script).not.toContain("</script><b>");
    expect(s.script).toContain("\\u003c/script>");
  });
});

describe("automations of a form (spec 6.2)", () => {
  const action = (input: Record<string, string>) => automationActionSchema.parse(input);

  test("6.2: an admin adds tag, campaign and task automations (new tag and campaign created) and they run", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const { id: formId } = await withUser(admin.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({}) }),
    );
    for (const input of <Record<string, string>[]>[
      { action_type: "add_tag", new_tag: "Webinar" },
      { action_type: "enroll_campaign", new_campaign: "Nurture" },
      { action_type: "create_task", task_title: "Call back", due_in_days: "2" },
    ])
      await withUser(admin.claims, (tx) =>
        createFormAutomation(tx, { workspaceId: ws.id, formId, action: action(input) }),
      );
    const res = await submit(formId, { json: { email: "lead@example.test" } });
    const { contact_id } = await res.json();
    expect(
      await db.sql`select t.name from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = ${contact_id}`,
    ).toEqual([{ name: "Webinar" }]);
    expect(
      await db.sql`select c.name from campaign_enrollments e join campaigns c on c.id = e.campaign_id where e.contact_id = ${contact_id}`,
    ).toEqual([{ name: "Nurture" }]);
    const [task] =
      await db.sql`select title, due_date - current_date as days from tasks where contact_id = ${contact_id}`;
    expect(task).toEqual({ title: "Call back", days: 2 });
    const listed = await withUser(admin.claims, (tx) =>
      listFormAutomations(tx, { workspaceId: ws.id, formId }),
    );
    expect(listed.map((a) => [a.name, a.runs, a.failed_runs])).toEqual([
      ["Add tag “Webinar”", 1, 0],
      ["Enroll in campaign “Nurture”", 1, 0],
      ["Create task “Call back”", 1, 0],
    ]);
  });

  test("6.2: an existing tag or campaign is reused; another workspace's is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const [foreignTag] =
      await db.sql`insert into tags (workspace_id, name) values (${other.id}, 'Theirs') returning id`;
    const [tag] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Mine') returning id`;
    const { id: formId } = await withUser(ws.owner.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({}) }),
    );
    const refused = await withUser(ws.owner.claims, (tx) =>
      createFormAutomation(tx, {
        workspaceId: ws.id,
        formId,
        action: action({ action_type: "add_tag", tag_id: foreignTag.id }),
      }),
    );
    expect(refused).toEqual({ error: new AppError("not_found", "That tag does not exist.") });
    await withUser(ws.owner.claims, (tx) =>
      createFormAutomation(tx, {
        workspaceId: ws.id,
        formId,
        action: action({ action_type: "add_tag", new_tag: "Mine" }),
      }),
    );
    const [auto] = await db.sql`select action_config from automations where form_id = ${formId}`;
    expect(auto.action_config).toEqual({ tag_id: tag.id });
    expect((await db.sql`select count(*)::int as n from tags where workspace_id = ${ws.id}`)[0].n).toBe(1);
  });

  test("6.2: a member cannot add or remove automations; an admin removes one and it stops running", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const { id: formId } = await withUser(ws.owner.claims, (tx) =>
      createForm(tx, { workspaceId: ws.id, settings: settings({}) }),
    );
    const task = action({ action_type: "create_task", task_title: "Follow up", due_in_days: "0" });
    await expect(
      withUser(member.claims, (tx) => createFormAutomation(tx, { workspaceId: ws.id, formId, action: task })),
    ).rejects.toThrow(/row-level security/);
    const created = await withUser(ws.owner.claims, (tx) =>
      createFormAutomation(tx, { workspaceId: ws.id, formId, action: task }),
    );
    if ("error" in created) throw created.error;
    expect(
      await withUser(member.claims, (tx) =>
        deleteAutomation(tx, { workspaceId: ws.id, automationId: created.data.id }),
      ),
    ).toBe(false);
    expect(
      await withUser(ws.owner.claims, (tx) =>
        deleteAutomation(tx, { workspaceId: ws.id, automationId: created.data.id }),
      ),
    ).toBe(true);
    const res = await submit(formId, { json: { email: "after@example.test" } });
    const { contact_id } = await res.json();
    expect(await db.sql`select 1 from tasks where contact_id = ${contact_id}`).toHaveLength(0);
  });

  test("6.2: the action form requires a tag or campaign choice and a task title", () => {
    expect(automationActionSchema.safeParse({ action_type: "add_tag" }).success).toBe(false);
    expect(
      automationActionSchema.safeParse({ action_type: "enroll_campaign", campaign_id: "" }).success,
    ).toBe(false);
    expect(
      automationActionSchema.safeParse({ action_type: "create_task", task_title: "", due_in_days: "1" })
        .success,
    ).toBe(false);
    expect(
      automationActionSchema.safeParse({ action_type: "create_task", task_title: "x", due_in_days: "400" })
        .success,
    ).toBe(false);
    expect(automationActionSchema.safeParse({ action_type: "send_sms" }).success).toBe(false);
  });
});
