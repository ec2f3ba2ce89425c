import { FIREWALL_ACTION_LABELS, FIREWALL_ACTIONS, type FirewallAction, type FirewallMethods } from '@rampart/contract';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../../app/toast';
import { DateTime } from '../../../../components/DateTime';
import type { ListColumns } from '../../../../components/FitTable';
import { type ListQuery, ListTable } from '../../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import type { ListSearch } from '../../../../features/lists/use-list-search';
import { IpsCell, MethodsCell } from './FirewallCells';
import { FIREWALL_KINDS, type FirewallKindKey, type FirewallRule } from './firewall-kinds';

interface FirewallRulesTableProps {
  kind: FirewallKindKey;
  list: ListQuery<FirewallRule>;
  search: ListSearch<never>;
  canWrite: boolean;
  /** The list's buttons, on the column chooser's line. */
  toolbar: ReactNode;
  selected: number[];
  onSelect: (ids: number[]) => void;
  onEdit: (rule: FirewallRule) => void;
  onDelete: (id: number) => void;
  /** Whether this rule's own delete is under way. */
  deleting: (id: number) => boolean;
}

function blockTypeTag(blockType: number | undefined) {
  if (blockType === undefined || !Object.hasOwn(FIREWALL_ACTION_LABELS, blockType)) return '—';
  const color = blockType === FIREWALL_ACTIONS.deny ? 'red' : 'volcano';
  return <Tag color={color}>{localized(FIREWALL_ACTION_LABELS[blockType as FirewallAction])}</Tag>;
}

/**
 * One row a rule of the kind: IPs, URL pattern, methods, the blacklist's mode, memo; the dates in
 * the column chooser. Cells are capped (IPs 170 px, URL 150, methods 130, memo 120) so that the
 * default columns fit 1280 px with the sidebar open ("Lists that fit the screen" in decisions.md).
 */
export function FirewallRulesTable(props: FirewallRulesTableProps) {
  const { kind, list, search, canWrite, toolbar, selected, onSelect, onEdit, onDelete, deleting } = props;
  const { t } = useTranslation('firewall');
  const columns: ListColumns<FirewallRule> = [
    { title: t('ips'), dataIndex: 'ips', maxWidth: 170, render: (ips: string[]) => <IpsCell ips={ips} /> },
    {
      title: t('url'),
      dataIndex: 'url',
      ellipsis: true,
      maxWidth: 150,
      render: (url: string) => <Typography.Text code>{url}</Typography.Text>,
    },
    {
      title: t('methods'),
      dataIndex: 'methods',
      render: (methods: FirewallMethods) => <MethodsCell methods={methods} />,
    },
    ...(FIREWALL_KINDS[kind].blockType
      ? [
          {
            title: t('mode'),
            chooserLabel: t('blockType'),
            dataIndex: 'blockType',
            render: (blockType: number | undefined) => blockTypeTag(blockType),
          },
        ]
      : []),
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, maxWidth: 120, render: (memo: string) => memo || '—' },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    // A caller without the write key sees the rules only.
    ...(canWrite
      ? [
          actionsColumn((rule: FirewallRule) => (
            <RowActions
              onEdit={() => onEdit(rule)}
              deleteConfirm={t('deleteConfirm')}
              deleting={deleting(rule.id)}
              onDelete={() => onDelete(rule.id)}
            />
          )),
        ]
      : []),
  ];

  return (
    <ListTable<FirewallRule>
      rowKey="id"
      columns={columns}
      toolbar={toolbar}
      rowSelection={
        canWrite ? { selectedRowKeys: selected, onChange: (keys) => onSelect(keys as number[]) } : undefined
      }
      list={list}
      paging={search}
      emptyText={t(`empty.${kind}`)}
    />
  );
}
