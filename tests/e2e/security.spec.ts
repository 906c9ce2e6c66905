import { expect, test } from "@playwright/test";

test("clickjacking: every page refuses framing except the public RSVP page; nosniff and a referrer policy", async ({
  request,
}) => {
  for (const path of ["/sign-in", "/contacts", "/api/health"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    const headers = res.headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  }
  const rsvp = await request.get("/rsvp/00000000-0000-4000-8000-000000000000");
  expect(rsvp.headers()["content-security-policy"]).toContain("frame-ancestors *");
  expect(rsvp.headers()["x-content-type-options"]).toBe("nosniff");
});

test("unbounded bodies: a body past the cap is refused with the JSON envelope", async ({ request }) => {
  const res = await request.post("/api/rsvp/00000000-0000-4000-8000-000000000000", {
    headers: { "content-type": "application/json" },
    data: JSON.stringify({ email: "a@example.test", pad: "x".repeat(70 * 1024) }),
  });
  expect(res.status()).toBe(413);
  expect(await res.json()).toEqual({ success: false, error: "The request body is too large." });
});
