import { describe, expect, test } from "vitest";
import { MergeTagError, parseMergeTemplate, renderMerge } from "@/lib/email/merge-tags";

describe('merge tags: {{ name | "fallback" }}', () => {
  test("parses names and fallbacks, spaces allowed inside the braces", () => {
    expect(parseMergeTemplate('Hi {{ first_name | "friend" }}, {{email}}!')).toEqual({
      texts: ["Hi ", ", ", "!"],
      tags: [
        { name: "first_name", fallback: "friend" },
        { name: "email", fallback: "" },
      ],
    });
  });

  test.each(["{{frist_name}}", "{{first_name | friend}}", "{{first_name", "{{ }}", '{{first_name | "a}b"}}'])(
    "refuses %s with unknown_merge_tag",
    (source) => {
      expect(() => parseMergeTemplate(`Hi ${source}`)).toThrow(MergeTagError);
    },
  );

  test("merge tags never inject HTML: values are escaped in the HTML part, flattened in the text part, never re-read as tags", () => {
    const values = {
      first_name: '<b onclick="x">{{unsubscribe_url}}</b>',
      unsubscribe_url: "https://u.test/?a=1&b=2",
    };
    expect(
      renderMerge('<p>{{first_name|"friend"}}</p><a href="{{unsubscribe_url}}">x</a>', values, "html"),
    ).toBe(
      '<p>&lt;b onclick=&quot;x&quot;&gt;{{unsubscribe_url}}&lt;/b&gt;</p><a href="https://u.test/?a=1&amp;b=2">x</a>',
    );
    expect(renderMerge("Hi {{first_name}}", { first_name: "Ann\r\nBcc: x@y.test\u0007" }, "text")).toBe(
      "Hi Ann Bcc: x@y.test",
    );
    // an HTML part's fallback is stored escaped; it is shown once escaped, not twice
    expect(renderMerge('{{first_name|"Tom &amp; Jerry"}}', {}, "html")).toBe("Tom &amp; Jerry");
  });
});
