import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { BroadcastReport } from "@/components/email/broadcast-report";
import { broadcastReportView } from "@/lib/email/broadcast-report-view";
import type { BroadcastReport as Report } from "@/lib/email/broadcast-stats";

const report = (opened: number, clicked: number, humanOpened = 0, humanClicked = 0): Report => ({
  stats: {
    sent: 10,
    delivered: 10,
    opened_unique: opened,
    clicked_unique: clicked,
    bounced: 0,
    complained: 0,
    unsubscribed: 1,
  },
  human: { opened_unique: humanOpened, clicked_unique: humanClicked },
  links: [],
  timeline: { bucket: "hour", labels: [], values: {} },
});
const row = (view: ReturnType<typeof broadcastReportView>, key: string) =>
  view.rows.find((r) => r.key === key)!;

describe("the broadcast report and tracking (docs/decisions.md, 'Email engagement')", () => {
  test("tracking off and nothing recorded: opens and clicks read 'not tracked', never a measured 0 (0% of delivered)", () => {
    const view = broadcastReportView(report(0, 0), false);
    expect(row(view, "opened")).toEqual({
      key: "opened",
      label: "Unique opens",
      value: null,
      note: "not tracked",
    });
    expect(row(view, "clicked")).toMatchObject({ value: null, note: "not tracked" });
    expect(view.engagementShown).toBe(false);
    expect(view.trackingNote).toMatch(/not tracked .*no open or click counts/);
    expect(view.rows.map((r) => r.note).join(" ")).not.toMatch(/machines/);
  });

  test("tracking off with machine opens recorded while it was on: the counts say when they were recorded, the note says so too", () => {
    const view = broadcastReportView(report(3, 1, 1, 0), false);
    expect(row(view, "opened")).toMatchObject({
      value: 1,
      note: "10% of delivered; 2 more by machines; recorded while tracking was on",
    });
    expect(row(view, "clicked")).toMatchObject({
      value: 0,
      note: expect.stringMatching(/1 more by machines; recorded/),
    });
    expect(view.engagementShown).toBe(true);
    expect(view.trackingNote).toMatch(/not tracked in this workspace now: .*recorded while tracking was on/);
  });

  test("tracking on: people's opens and clicks with their share, machines' apart, and no tracking note", () => {
    const view = broadcastReportView(report(3, 1, 1, 1), true);
    expect(row(view, "opened")).toMatchObject({ value: 1, note: "10% of delivered; 2 more by machines" });
    expect(row(view, "clicked")).toMatchObject({ value: 1, note: "10% of delivered; 0 more by machines" });
    expect(view.trackingNote).toBeNull();
    expect(row(view, "unsubscribed")).toMatchObject({ value: 1, note: "10%" });
  });

  test("the page's report with tracking off and no opens shows no open count, no share of delivered and no machines' count", () => {
    const html = renderToString(createElement(BroadcastReport, { report: report(0, 0), tracking: false }));
    const opened = html.slice(
      html.indexOf('data-testid="report-opened"'),
      html.indexOf('data-testid="report-clicked"'),
    );
    expect(opened).toContain("not tracked");
    expect(opened).not.toMatch(/% of delivered|by machines|>0</);
    expect(html).toContain("no open or click counts");
    expect(html).not.toContain("people opened");
  });
});
