import {
  L4_RULE_KINDS,
  type L4IpRule,
  type L4IpRuleInput,
  type L4LimitConnRule,
  type L4LimitConnRuleInput,
  type L4PositionRule,
  type L4PositionRuleInput,
} from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import type { ListColumn, ListColumns } from '../../../../components/FitTable';
import { useLocale } from '../../../../i18n';
import { IpsCell } from './FirewallCells';
import { formatCount } from './FrequencyLimitCells';
import { dateColumns, enabledColumn, listKindColumn, memoColumn } from './firewall-columns';
import type { FirewallColumnsContext, FirewallKind, FirewallRuleRow } from './firewall-kinds';
import { GeoRegionsCell } from './geo-regions';
import { L4IpRuleFields, L4LimitConnRuleFields, L4PositionRuleFields } from './L4RuleFields';
import { portLabel } from './l4-ports';
import {
  type L4IpRuleValues,
  type L4LimitConnRuleValues,
  type L4PositionRuleValues,
  l4IpRuleBody,
  l4IpRuleFieldOf,
  l4IpRuleValues,
  l4LimitConnRuleBody,
  l4LimitConnRuleFieldOf,
  l4LimitConnRuleValues,
  l4PositionRuleBody,
  l4PositionRuleFieldOf,
  l4PositionRuleValues,
  NEW_L4_IP_RULE,
  NEW_L4_LIMIT_CONN_RULE,
  NEW_L4_POSITION_RULE,
} from './l4-rule-form';

/** The rate cell wraps within this width (a list of the largest numbers fits 1280 px). */
const RATE_CELL_WIDTH = 150;

/** A count in the interface language ("1,000,000"), in the unit's text when it has one. */
function L4Count({ value, unit }: { value: number; unit?: 'delayCell' }) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  const count = formatCount(value, locale);
  return unit ? t(`l4.${unit}`, { seconds: count }) : count;
}

/** A limit's rate and burst ("5/s, burst 10"), wrapping within its width, or "No rate". */
function L4RateCell({ rule }: { rule: L4LimitConnRule }) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  if (rule.rate === null) return t('l4.noRate');
  const rate = t('rateCell', { rate: formatCount(rule.rate, locale) });
  const burst = t('burstCell', { burst: formatCount(rule.burst, locale) });
  return <div style={{ maxWidth: RATE_CELL_WIDTH }}>{`${rate}${t('cellSeparator')}${burst}`}</div>;
}

/**
 * A layer-4 site's rules (contract rule-kinds/site-firewall-l4.ts gives each kind's calls and
 * schema), each on one of its ports: the port first, by number and protocol; the memo and the dates
 * in the column chooser where a kind has a switch.
 */
function portColumn<R extends FirewallRuleRow & { port: number; protocol: string }>({
  t,
}: FirewallColumnsContext): ListColumn<R> {
  return { title: t('l4.port'), dataIndex: 'port', render: (_: number, rule) => portLabel(rule.port, rule.protocol) };
}

function ipColumns(context: FirewallColumnsContext): ListColumns<L4IpRule> {
  const { t } = context;
  return [
    portColumn<L4IpRule>(context),
    {
      title: t('l4.addresses'),
      dataIndex: 'ips',
      maxWidth: 220,
      render: (ips: string[]) => <IpsCell ips={ips} />,
    },
    memoColumn<L4IpRule>(t),
    ...dateColumns<L4IpRule>(t),
  ];
}

function ipKind(key: 'l4Whitelist' | 'l4Blacklist'): FirewallKind<L4IpRuleInput, L4IpRule, L4IpRuleValues> {
  const white = key === 'l4Whitelist';
  return {
    key,
    routes: L4_RULE_KINDS[key].routes,
    resource: white ? 'l4WhitelistRules' : 'l4BlacklistRules',
    schema: L4_RULE_KINDS[key].input,
    columns: ipColumns,
    Fields: L4IpRuleFields,
    newRule: NEW_L4_IP_RULE,
    values: l4IpRuleValues,
    body: l4IpRuleBody,
    fieldOf: (form) => l4IpRuleFieldOf(() => form.getFieldValue('ips')),
  };
}

/** Addresses always let through on the port (before every other rule, the zone's rates too). */
export const l4WhitelistKind = ipKind('l4Whitelist');
/** Addresses dropped on the port. */
export const l4BlacklistKind = ipKind('l4Blacklist');

/** The countries denied on the port, or the only ones let through; one enabled rule a port. */
export const l4PositionKind: FirewallKind<L4PositionRuleInput, L4PositionRule, L4PositionRuleValues> = {
  key: 'position',
  routes: L4_RULE_KINDS.position.routes,
  resource: 'l4PositionRules',
  schema: L4_RULE_KINDS.position.input,
  columns: (context) => {
    const { t } = context;
    return [
      portColumn<L4PositionRule>(context),
      listKindColumn<L4PositionRule>(t),
      {
        title: t('l4.countries'),
        dataIndex: 'positions',
        render: (codes: string[]) => <GeoRegionsCell ids={codes} />,
      },
      enabledColumn(l4PositionKind, context, (rule) => portLabel(rule.port, rule.protocol)),
      memoColumn<L4PositionRule>(t, true),
      ...dateColumns<L4PositionRule>(t),
    ];
  },
  Fields: L4PositionRuleFields,
  newRule: NEW_L4_POSITION_RULE,
  values: l4PositionRuleValues,
  body: l4PositionRuleBody,
  fieldOf: () => l4PositionRuleFieldOf,
};

/** Connections per client address on the port, at once and new per second; one enabled limit a port. */
export const l4LimitConnKind: FirewallKind<L4LimitConnRuleInput, L4LimitConnRule, L4LimitConnRuleValues> = {
  key: 'limitConn',
  routes: L4_RULE_KINDS.limitConn.routes,
  resource: 'l4LimitConnRules',
  schema: L4_RULE_KINDS.limitConn.input,
  columns: (context) => {
    const { t } = context;
    return [
      portColumn<L4LimitConnRule>(context),
      { title: t('l4.max'), dataIndex: 'max', render: (max: number) => <L4Count value={max} /> },
      {
        title: t('rate'),
        dataIndex: 'rate',
        render: (_: number | null, rule) => <L4RateCell rule={rule} />,
      },
      {
        title: t('l4.delay'),
        dataIndex: 'delay',
        render: (delay: number) => (delay === 0 ? t('l4.noDelay') : <L4Count value={delay} unit="delayCell" />),
      },
      enabledColumn(l4LimitConnKind, context, (rule) => portLabel(rule.port, rule.protocol)),
      memoColumn<L4LimitConnRule>(t, true),
      ...dateColumns<L4LimitConnRule>(t),
    ];
  },
  Fields: L4LimitConnRuleFields,
  newRule: NEW_L4_LIMIT_CONN_RULE,
  values: l4LimitConnRuleValues,
  body: l4LimitConnRuleBody,
  fieldOf: () => l4LimitConnRuleFieldOf,
};
