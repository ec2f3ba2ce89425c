import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Space } from 'antd';
import type { ReactNode } from 'react';

interface ListToolbarProps {
  /** What works on the list or its chosen rows (search, filters, bulk actions), at the start. */
  children?: ReactNode;
  /** The list's create button at the end; absent when the caller may not create. */
  create?: { label: string; onClick: () => void; icon?: ReactNode };
  /** The list's other dialogs' buttons, before create (bind, batch add). */
  extra?: ReactNode;
}

/** The bar above a list table: the list's own controls at the start, its create button at the end. */
export function ListToolbar({ children, create, extra }: ListToolbarProps) {
  return (
    <Flex justify={children ? 'space-between' : 'flex-end'} gap="small" wrap style={{ marginBottom: 16 }}>
      {children}
      <Space>
        {extra}
        {create && (
          <Button type="primary" icon={create.icon ?? <PlusOutlined />} onClick={create.onClick}>
            {create.label}
          </Button>
        )}
      </Space>
    </Flex>
  );
}
