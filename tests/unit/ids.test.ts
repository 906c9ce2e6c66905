import { describe, expect, it } from "vitest";
import { isUuid, uuidSchema } from "@/lib/ids/uuid";

describe("lib/ids: the one uuid check", () => {
  it("accepts Postgres's text form of a uuid, in either case", () => {
    expect(isUuid("3f0c8a52-9a4e-4d6b-8f1e-2b7c9d0e1f23")).toBe(true);
    expect(isUuid("3F0C8A52-9A4E-4D6B-8F1E-2B7C9D0E1F23")).toBe(true);
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
  });

  it("refuses what Postgres would refuse with an error: 36 dashes, 36 hex digits, short, padded, not a string", () => {
    for (const value of [
      "-".repeat(36),
      "a".repeat(36),
      "3f0c8a52-9a4e-4d6b-8f1e-2b7c9d0e1f2",
      " 3f0c8a52-9a4e-4d6b-8f1e-2b7c9d0e1f23",
      "3f0c8a52-9a4e-4d6b-8f1e-2b7c9d0e1f23\n",
      "g f0c8a52-9a4e-4d6b-8f1e-2b7c9d0e1f23",
      "",
      null,
      undefined,
      42,
    ]) {
      expect(isUuid(value), String(value)).toBe(false);
    }
    expect(uuidSchema.safeParse("-".repeat(36)).error?.issues[0]?.message).toBe("Not a valid id.");
  });
});
