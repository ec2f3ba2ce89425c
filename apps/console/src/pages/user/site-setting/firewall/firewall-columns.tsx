import { LIST_KIND_LABELS } from '@rampart/contract';
import { Tag, Typography } from 'antd';
import { localized } from '../../../../app/toast';
import { DateTime } from '../../../../components/DateTime';
import type { ListColumn, ListColumns } from '../../../../components/FitTable';
import { BlockTypeTag } from './FirewallCells';
import { FirewallEnabledSwitch, type SwitchableRow } from './FirewallEnabledSwitch';
import type { FirewallColumnsContext, FirewallKind, FirewallRuleRow } from './firewall-kinds';

// Columns more than one kind shows. Cells are capped (memo 120 px; each pattern its own width) so
// that every kind's default columns fit 1280 px with the sidebar open ("Lists that fit the screen"
// in docs/decisions.md).

type Translate = FirewallColumnsContext['t'];

/** A pattern (the URL, the User-Agent) as code on one line of at most `maxWidth`, whole on hover. */
export function patternColumn<R>(title: string, dataIndex: keyof R & string, maxWidth: number): ListColumn<R> {
  return {
    title,
    dataIndex,
    ellipsis: true,
    maxWidth,
    render: (pattern: string) => <Typography.Text code>{pattern}</Typography.Text>,
  };
}

/** The protection mode (DENY, DROP). */
export function blockTypeColumn<R extends { blockType: number }>(t: Translate): ListColumn<R> {
  return {
    title: t('mode'),
    chooserLabel: t('blockType'),
    dataIndex: 'blockType',
    render: (blockType: number) => <BlockTypeTag blockType={blockType} />,
  };
}

/**
 * Whether the rule is on, as a switch that replaces the rule with `enabled` changed (disabled
 * without the write key); `name` is the rule's part that names its switch ("Rule {{pattern}} on").
 */
export function enabledColumn<B extends object, R extends SwitchableRow, V extends { enabled: boolean }>(
  kind: FirewallKind<B, R, V>,
  { t, params, canWrite }: FirewallColumnsContext,
  name: (rule: R) => string,
): ListColumn<R> {
  return {
    title: t('enabled'),
    dataIndex: 'enabled',
    render: (_: boolean, rule) => (
      <FirewallEnabledSwitch
        params={params}
        kind={kind}
        rule={rule}
        canWrite={canWrite}
        label={t('enabledOf', { pattern: name(rule) })}
      />
    ),
  };
}

/** The memo; `defaultHidden` leaves it to the column chooser. */
export function memoColumn<R extends FirewallRuleRow>(t: Translate, defaultHidden = false): ListColumn<R> {
  return {
    title: t('memo'),
    dataIndex: 'memo',
    ellipsis: true,
    maxWidth: 120,
    defaultHidden,
    render: (memo: string) => memo || '—',
  };
}

/** When the rule was created and last changed, in the column chooser. */
export function dateColumns<R extends FirewallRuleRow>(t: Translate): ListColumns<R> {
  return (['createdAt', 'updatedAt'] as const).map((field) => ({
    title: t(field),
    dataIndex: field,
    defaultHidden: true,
    render: (value: string) => <DateTime value={value} />,
  }));
}

/** Black or white (the geo rules, the layer-4 positions). */
export function listKindColumn<R extends { isBlack: boolean }>(t: Translate): ListColumn<R> {
  return {
    title: t('listKind'),
    dataIndex: 'isBlack',
    render: (isBlack: boolean) => (
      <Tag color={isBlack ? 'red' : 'green'}>{localized(LIST_KIND_LABELS[isBlack ? 'black' : 'white'])}</Tag>
    ),
  };
}
