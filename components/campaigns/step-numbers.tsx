import { StackedBars } from "@/components/dashboard/stacked-bars";
import { DataTable } from "@/components/ui/data-table";
import type { StepNumbers } from "@/lib/campaigns/dashboard";

const COLUMNS = [
  ["entered", "Entered"],
  ["waiting", "Waiting"],
  ["sent", "Sent"],
  ["opened", "Opened"],
  ["clicked", "Clicked"],
  ["exited", "Exited"],
  ["goal_reached", "Goal reached"],
] as const;

/**
 * The numbers per step (lib/campaigns/dashboard.ts, campaignStepNumbers) as a table, and how
 * many contacts reached each step as a bar chart (components/dashboard/stacked-bars.tsx, one
 * series: its summary and data table are the text alternative).
 */
export function CampaignStepNumbers({
  steps,
  numbers,
}: {
  steps: { id: string; type: string }[];
  numbers: Map<string, StepNumbers>;
}) {
  const zero = (id: string): StepNumbers => ({
    step_id: id,
    entered: 0,
    waiting: 0,
    sent: 0,
    opened: 0,
    clicked: 0,
    exited: 0,
    goal_reached: 0,
  });
  // the draft's steps in their order, then any step only an earlier version had
  const ids = [
    ...steps.map((s) => s.id),
    ...[...numbers.keys()].filter((id) => !steps.some((s) => s.id === id)),
  ];
  const rows = ids.map((id) => numbers.get(id) ?? zero(id));
  const total = rows.reduce((sum, r) => sum + r.entered, 0);
  return (
    <section
      className="card stack"
      aria-labelledby="step-numbers-heading"
      data-testid="campaign-step-numbers"
    >
      <h2 id="step-numbers-heading">Step by step</h2>
      <DataTable
        rows={rows}
        columns={["Step", ...COLUMNS.map(([, label]) => label)]}
        caption="Contacts and emails at each step"
        empty="No steps yet."
      >
        {(r) => (
          <tr key={r.step_id} data-testid={`step-numbers-${r.step_id}`}>
            <th scope="row">{r.step_id}</th>
            {COLUMNS.map(([key]) => (
              <td key={key} data-column={key}>
                {r[key]}
              </td>
            ))}
          </tr>
        )}
      </DataTable>
      {rows.length > 0 && (
        <StackedBars
          id="campaign-entered"
          title="Contacts who reached each step"
          summary={
            total === 0
              ? "No contact has reached a step yet."
              : `${rows[0].entered} reached the first step, ${rows[rows.length - 1].entered} the last.`
          }
          days={rows.map((r) => r.step_id)}
          keys={[{ key: "entered", label: "Entered" }]}
          values={Object.fromEntries(rows.map((r) => [r.step_id, { entered: r.entered }]))}
          unit="contacts"
          bucketLabel="Step"
          tickLabel={(id) => (id.length > 12 ? `${id.slice(0, 11)}…` : id)}
        />
      )}
    </section>
  );
}
