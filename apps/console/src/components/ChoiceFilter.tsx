import { Select } from 'antd';

/** The value of a filter's "all" choice (the spec's -1); never sent. */
const ALL = 'all';

interface ChoiceFilterProps {
  /** Accessible name of the select. */
  label: string;
  /** The filter's value in the URL; undefined shows the "all" choice. */
  value: string | undefined;
  /** The text of the "all" choice, listed first. */
  allLabel: string;
  options: readonly { value: string; label: string }[];
  /** Called with undefined when "all" is chosen. */
  onChange: (value: string | undefined) => void;
  width?: number;
}

/** A list filter with one choice among a few and an "all" choice first (status, yes/no flags). */
export function ChoiceFilter({ label, value, allLabel, options, onChange, width = 160 }: ChoiceFilterProps) {
  return (
    <Select
      style={{ width }}
      aria-label={label}
      value={value ?? ALL}
      options={[{ value: ALL, label: allLabel }, ...options]}
      onChange={(chosen: string) => onChange(chosen === ALL ? undefined : chosen)}
    />
  );
}
