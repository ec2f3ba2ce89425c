import { Input } from 'antd';

interface SearchBoxProps {
  /** Placeholder and accessible name ("Search domains"). */
  label: string;
  /** The search in the URL, shown when the page opens. */
  value: string | undefined;
  /** Called with the trimmed text on Enter or the search button; '' clears the search. */
  onSearch: (text: string) => void;
  width?: number;
}

/** A list's text search: it runs on Enter, not on every key, so each search is one request and one history entry. */
export function SearchBox({ label, value, onSearch, width = 240 }: SearchBoxProps) {
  return (
    <Input.Search
      allowClear
      style={{ width }}
      placeholder={label}
      aria-label={label}
      defaultValue={value}
      onSearch={(text) => onSearch(text.trim())}
    />
  );
}
