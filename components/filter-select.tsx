/** One choice of a select: a plain string is both its value and its text. */
export type SelectOption = string | { value: string; label: string };

/** A select's <option>s (shared by FilterSelect and the form field SelectField). */
export function SelectOptions({ options }: { options: readonly SelectOption[] }) {
  return options.map((option) => {
    const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
    return (
      <option key={value} value={value}>
        {label}
      </option>
    );
  });
}

/**
 * A select in a list's filter bar (a plain GET form): the label wraps its text and the
 * select, so the filters lay out in a row and keep their names without ids.
 */
export function FilterSelect({
  label,
  options,
  ...rest
}: {
  label: string;
  options: readonly SelectOption[];
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label>
      {label}
      <select {...rest}>
        <SelectOptions options={options} />
      </select>
    </label>
  );
}
