import { Tag } from 'antd';

/** Texts as tags (site tags, a certificate's names); '—' when there are none. */
export function TagList({ items, color }: { items: readonly string[]; color?: string }) {
  if (items.length === 0) return <>—</>;
  return (
    <>
      {items.map((item) => (
        <Tag key={item} color={color}>
          {item}
        </Tag>
      ))}
    </>
  );
}
