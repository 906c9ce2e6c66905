import { describeCondition } from "@/lib/segments/describe-filter";
import type { Explained } from "@/lib/segments/explain-contact";

/** Why one contact is in or out of a segment: each condition and group, answered in words (not colour alone). */
export function SegmentExplanation({
  email,
  explained,
  names,
}: {
  email: string;
  explained: Explained;
  names: Map<string, string>;
}) {
  const render = (node: Explained, key: string) =>
    node.kind === "condition" ? (
      <li key={key}>
        <strong>{node.matches ? "Yes" : "No"}</strong>: {describeCondition(node.condition, names)}
      </li>
    ) : (
      <li key={key}>
        <strong>{node.matches ? "Yes" : "No"}</strong>: {node.not ? "not " : ""}
        {node.op === "and" ? "all" : "any"} of
        <ul>{node.conditions.map((child, i) => render(child, `${key}.${i}`))}</ul>
      </li>
    );
  return (
    <div className="stack">
      <p role="status">
        <strong>{email}</strong> is {explained.matches ? "in" : "not in"} this segment.
      </p>
      {explained.kind === "group" && explained.conditions.length > 0 && (
        <ul aria-label="Conditions">{explained.conditions.map((child, i) => render(child, String(i)))}</ul>
      )}
    </div>
  );
}
