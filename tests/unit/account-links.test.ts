import { describe, expect, test } from "vitest";
import { safeNextPath } from "@/lib/auth/account-links";

describe("where sign-in may send a person next", () => {
  test("a path of this site is kept", () => {
    expect(safeNextPath("/invitations/accept?token=abc_-1")).toBe("/invitations/accept?token=abc_-1");
    expect(safeNextPath("/contacts")).toBe("/contacts");
  });

  test("anything that could leave the site is refused (open redirect)", () => {
    for (const next of [
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "contacts",
      "/a b",
      "/\nLocation: x",
      "",
      null,
      42,
    ])
      expect(safeNextPath(next), String(next)).toBeNull();
  });
});
