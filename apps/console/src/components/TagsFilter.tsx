import { Select } from 'antd';

interface TagsFilterProps {
  label: string;
  /** The text shown when no tag is chosen ("Any tag"). */
  placeholder: string;
  /** The tags chosen, from the URL. */
  value: string[];
  /** The tags there are to choose from. */
  tags: readonly string[] | undefined;
  onChange: (tags: string[]) => void;
}

/** A list filter on tags: rows carrying any of the chosen tags. */
export function TagsFilter({ label, placeholder, value, tags, onChange }: TagsFilterProps) {
  return (
    <Select
      mode="multiple"
      allowClear
      style={{ minWidth: 180 }}
      placeholder={placeholder}
      aria-label={label}
      value={value}
      options={tags?.map((tag) => ({ value: tag, label: tag }))}
      onChange={onChange}
    />
  );
}
