import { describe, expect, test } from "vitest";
import { emailLinks, HTML_READ_MAX, LINKS_MAX } from "@/lib/email/list-email-sends";

describe("the outbox lists a stored email's links by parsing it, not by pattern", () => {
  test("crafted HTML: the links a browser would show, with their decoded targets and text", () => {
    const html = [
      '<p>Hi <a href="https://a.example/x?u=1&amp;v=2">Click <b>here</b> &amp; now</a></p>',
      "<A HREF='https://b.example/'>B</A>",
      '<a title="1 > 0" href="https://c.example/">after a quoted &gt;</a>',
      '<!-- <a href="https://hidden.example/">in a comment</a> -->',
      '<a href="javascript:alert(1)">script</a><a href="mailto:x@example.com">mail</a>',
      '<a href="https://d.example/" href="https://second.example/">first href counts</a>',
      '<a href="https://e.example/">opened<a href="https://f.example/">inside</a>',
      '<a href="https://g.example/"></a>',
      '<a href="https://h.example/">left open',
    ].join("");
    expect(emailLinks(html)).toEqual([
      { href: "https://a.example/x?u=1&v=2", text: "Click here & now" },
      { href: "https://b.example/", text: "B" },
      { href: "https://c.example/", text: "after a quoted >" },
      { href: "https://d.example/", text: "first href counts" },
      { href: "https://e.example/", text: "opened" },
      { href: "https://f.example/", text: "inside" },
      { href: "https://g.example/", text: "https://g.example/" },
      { href: "https://h.example/", text: "left open" },
    ]);
  });

  test("hostile sizes are bounded: unclosed anchors, huge attributes, an email past the read limit", () => {
    const unclosed = '<a href="https://x.example/">'.repeat(5_000);
    expect(emailLinks(unclosed)).toHaveLength(LINKS_MAX);
    expect(emailLinks(`<a href="https://${"x".repeat(100_000)}">long</a>`)).toEqual([]);
    const longText = emailLinks(`<a href="https://t.example/">${"word ".repeat(100_000)}</a>`);
    expect(longText[0].text.length).toBeLessThanOrEqual(200);
    const late = `${" ".repeat(HTML_READ_MAX)}<a href="https://late.example/">late</a>`;
    expect(emailLinks(late)).toEqual([]);
  });
});
