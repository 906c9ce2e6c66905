import { describe, expect, test } from "vitest";
import { pageParam } from "@/lib/http/page-param";

describe("a list's ?page=", () => {
  test("a whole number from 1 is the page; anything else is page 1; a huge one is capped", () => {
    expect(pageParam(undefined)).toBe(1);
    expect(pageParam("3")).toBe(3);
    expect(pageParam(["4", "9"])).toBe(4);
    for (const bad of ["", "0", "-2", "2.5", "1e3", "two", " 3", "3 ", "99999999"])
      expect(pageParam(bad)).toBe(1);
    expect(pageParam("9999999")).toBe(1_000_000);
  });
});
