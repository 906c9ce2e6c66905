import { describe, expect, it } from "vitest";
import { manifestText, mergeManifest, type ManifestEntry, type Privilege } from "@/lib/db/privileges";

const select: Privilege = {
  kind: "table",
  role: "authenticated",
  object: "public.contacts",
  privilege: "SELECT",
};
const update: Privilege = {
  kind: "column",
  role: "authenticated",
  object: "public.workspace_members",
  privilege: "UPDATE",
  columns: ["role"],
};

describe("npm run db:privileges keeps the reviewed parts of supabase/privileges.json", () => {
  it("keeps the reason and admitted roles of a privilege still granted, drops a revoked one, leaves a new one without a reason", () => {
    const previous: ManifestEntry[] = [
      { ...select, admits: ["owner", "admin", "member"], reason: "spec 5.4 contacts" },
      { ...update, columns: ["role", "user_id"], admits: ["owner", "admin"], reason: "too wide" },
    ];
    expect(mergeManifest([select, update], previous)).toEqual([
      { ...select, admits: ["owner", "admin", "member"], reason: "spec 5.4 contacts" },
      { ...update, reason: "" },
    ]);
  });

  it("writes one entry per line", () => {
    expect(manifestText([{ ...select, reason: "r" }])).toBe(
      '[\n  {"kind":"table","role":"authenticated","object":"public.contacts","privilege":"SELECT","reason":"r"}\n]\n',
    );
  });
});
