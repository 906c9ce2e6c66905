import { describe, expect, test } from "vitest";
import { lsnValue, replicaUnavailable } from "@/lib/db/replica";

describe("read replica routing (docs/deployment.md 'Read replica')", () => {
  test("WAL positions compare as numbers across the 4 GB boundary of their text form", () => {
    expect(lsnValue("0/FFFFFFFF") < lsnValue("1/0")).toBe(true);
    expect(lsnValue("A/1") > lsnValue("9/FFFFFFFF")).toBe(true);
    expect(lsnValue("0/3761EC0")).toBe(0x3761ec0n);
    expect(lsnValue("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
  });

  test("only a lost or refused connection, a shutting-down server or a replay conflict is retried on the primary", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "08006", "57P01", "40001"])
      expect(replicaUnavailable({ code })).toBe(true);
    // a query's own error (read-only transaction, permission, syntax) is the caller's answer
    for (const code of ["25006", "42501", "42601", "23505"]) expect(replicaUnavailable({ code })).toBe(false);
    expect(replicaUnavailable(new Error("no code"))).toBe(false);
    expect(replicaUnavailable(null)).toBe(false);
  });
});
