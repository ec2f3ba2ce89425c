import {
  type IntervalLimit,
  type IntervalLimitInput,
  type SecondLimit,
  type SecondLimitInput,
  SITE_RULE_KINDS,
} from '@rampart/contract';
import type { ListColumn, ListColumns } from '../../../../components/FitTable';
import { IntervalLimitCell, SecondLimitCell } from './FrequencyLimitCells';
import { IntervalLimitFields, SecondLimitFields } from './FrequencyLimitFields';
import { blockTypeColumn, dateColumns, enabledColumn, memoColumn, patternColumn } from './firewall-columns';
import type { FirewallColumnsContext, FirewallKind } from './firewall-kinds';
import {
  type IntervalLimitValues,
  intervalLimitBody,
  intervalLimitFieldOf,
  intervalLimitValues,
  NEW_INTERVAL_LIMIT,
  NEW_SECOND_LIMIT,
  type SecondLimitValues,
  secondLimitBody,
  secondLimitFieldOf,
  secondLimitValues,
} from './frequency-rule-form';

/**
 * The frequency limits (routes/firewall-frequency.ts): a URL pattern, the kind's limit in one
 * cell, a priority, a protection mode and a switch. The URL keeps to one line of 200 px and the
 * limit wraps between its words within 170 px (FrequencyLimitCells.tsx), so with the actions they fit 1280 px with the sidebar open; the
 * memo and the dates are in the column chooser.
 */
function frequencyColumns<B extends object, R extends IntervalLimit | SecondLimit, V extends { enabled: boolean }>(
  kind: FirewallKind<B, R, V>,
  context: FirewallColumnsContext,
  limit: ListColumn<R>,
): ListColumns<R> {
  const { t } = context;
  return [
    patternColumn<R>(t('url'), 'urlRegex', 200),
    limit,
    { title: t('priority'), dataIndex: 'priority' },
    blockTypeColumn<R>(t),
    enabledColumn(kind, context, (rule) => rule.urlRegex),
    memoColumn<R>(t, true),
    ...dateColumns<R>(t),
  ];
}

export const intervalLimitKind: FirewallKind<IntervalLimitInput, IntervalLimit, IntervalLimitValues> = {
  key: 'intervalLimit',
  routes: SITE_RULE_KINDS.intervalLimit.routes,
  resource: 'intervalLimits',
  schema: SITE_RULE_KINDS.intervalLimit.input,
  columns: (context) =>
    frequencyColumns(intervalLimitKind, context, {
      title: context.t('limit'),
      key: 'limit',
      render: (_: unknown, rule: IntervalLimit) => <IntervalLimitCell rule={rule} />,
    }),
  Fields: IntervalLimitFields,
  newRule: NEW_INTERVAL_LIMIT,
  values: intervalLimitValues,
  body: intervalLimitBody,
  fieldOf: () => intervalLimitFieldOf,
};

export const secondLimitKind: FirewallKind<SecondLimitInput, SecondLimit, SecondLimitValues> = {
  key: 'secondLimit',
  routes: SITE_RULE_KINDS.secondLimit.routes,
  resource: 'secondLimits',
  schema: SITE_RULE_KINDS.secondLimit.input,
  columns: (context) =>
    frequencyColumns(secondLimitKind, context, {
      title: context.t('limit'),
      key: 'limit',
      render: (_: unknown, rule: SecondLimit) => <SecondLimitCell rule={rule} />,
    }),
  Fields: SecondLimitFields,
  newRule: NEW_SECOND_LIMIT,
  values: secondLimitValues,
  body: secondLimitBody,
  fieldOf: () => secondLimitFieldOf,
};
