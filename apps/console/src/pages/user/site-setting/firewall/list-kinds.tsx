import {
  type BlacklistRule,
  type BlacklistRuleInput,
  type FirewallMethods,
  SITE_RULE_KINDS,
  type WhitelistRule,
  type WhitelistRuleInput,
} from '@rampart/contract';
import type { ListColumns } from '../../../../components/FitTable';
import { IpsCell, MethodsCell } from './FirewallCells';
import { blockTypeColumn, dateColumns, memoColumn, patternColumn } from './firewall-columns';
import type { FirewallColumnsContext, FirewallKind } from './firewall-kinds';
import { BlacklistRuleFields, WhitelistRuleFields } from './ListRuleFields';
import {
  blacklistRuleBody,
  type ListRuleValues,
  listRuleFieldOf,
  listRuleValues,
  NEW_LIST_RULE,
  whitelistRuleBody,
} from './list-rule-form';

/**
 * The whitelist and the blacklist (routes/firewall-lists.ts): one shape of rule, IPs, URL pattern
 * and methods, the blacklist's with a protection mode. Cells are capped (IPs 170 px, URL 150,
 * methods 130, memo 120) so that the default columns fit 1280 px with the sidebar open.
 */
function listColumns<R extends WhitelistRule>({ t }: FirewallColumnsContext, mode: ListColumns<R>): ListColumns<R> {
  return [
    { title: t('ips'), dataIndex: 'ips', maxWidth: 170, render: (ips: string[]) => <IpsCell ips={ips} /> },
    patternColumn<R>(t('url'), 'url', 150),
    {
      title: t('methods'),
      dataIndex: 'methods',
      render: (methods: FirewallMethods) => <MethodsCell methods={methods} />,
    },
    ...mode,
    memoColumn<R>(t),
    ...dateColumns<R>(t),
  ];
}

export const whitelistKind: FirewallKind<WhitelistRuleInput, WhitelistRule, ListRuleValues> = {
  key: 'whitelist',
  routes: SITE_RULE_KINDS.whitelist.routes,
  resource: 'whitelistRules',
  schema: SITE_RULE_KINDS.whitelist.input,
  columns: (context) => listColumns(context, []),
  Fields: WhitelistRuleFields,
  newRule: NEW_LIST_RULE,
  values: listRuleValues,
  body: whitelistRuleBody,
  fieldOf: (form) => listRuleFieldOf(() => form.getFieldValue('ips')),
};

export const blacklistKind: FirewallKind<BlacklistRuleInput, BlacklistRule, ListRuleValues> = {
  key: 'blacklist',
  routes: SITE_RULE_KINDS.blacklist.routes,
  resource: 'blacklistRules',
  schema: SITE_RULE_KINDS.blacklist.input,
  columns: (context) => listColumns(context, [blockTypeColumn(context.t)]),
  Fields: BlacklistRuleFields,
  newRule: NEW_LIST_RULE,
  values: listRuleValues,
  body: blacklistRuleBody,
  fieldOf: (form) => listRuleFieldOf(() => form.getFieldValue('ips')),
};
