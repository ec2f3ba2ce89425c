import { Select } from 'antd';

/** The value of the "all" choice; never sent (an empty choice means all). */
const ALL = -1;

interface AllMultiSelectProps {
  label: string;
  allLabel: string;
  value: readonly number[];
  options: readonly { value: number; label: string }[];
  onChange: (ids: number[]) => void;
  loading?: boolean;
  /** Searching on the server (domains): the options are filtered there. */
  onSearch?: (text: string) => void;
  width?: number;
}

/**
 * A filter of several ids with an "all" choice listed first (spec part 2 §4): "all" stands alone,
 * choosing it clears the others and choosing another clears it.
 */
export function AllMultiSelect({
  label,
  allLabel,
  value,
  options,
  onChange,
  loading,
  onSearch,
  width = 220,
}: AllMultiSelectProps) {
  return (
    <Select<number[]>
      mode="multiple"
      aria-label={label}
      style={{ minWidth: width, maxWidth: 420 }}
      maxTagCount="responsive"
      loading={loading}
      value={value.length > 0 ? [...value] : [ALL]}
      options={[{ value: ALL, label: allLabel }, ...options]}
      showSearch={onSearch ? { filterOption: false, onSearch } : { optionFilterProp: 'label' }}
      onChange={(next) => {
        const added = next.at(-1);
        onChange(added === ALL || next.length === 0 ? [] : next.filter((id) => id !== ALL));
      }}
    />
  );
}
