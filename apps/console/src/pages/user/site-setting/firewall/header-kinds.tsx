import {
  type AntiHeader,
  type AntiReferer,
  type AntiRefererInput,
  antiRefererInputSchema,
  domainAccessRoutes,
  type HeaderRule,
  type HeaderRuleInput,
  headerRuleInputSchema,
  SITE_RULE_KINDS,
} from '@rampart/contract';
import { Tag } from 'antd';
import { blockTypeColumn, dateColumns, enabledColumn, memoColumn, patternColumn } from './firewall-columns';
import type { FirewallColumnsContext, FirewallKind, FirewallRuleRoutes } from './firewall-kinds';
import { AntiRefererFields, HeaderRuleFields } from './HeaderRuleFields';
import {
  type AntiRefererValues,
  antiRefererBody,
  antiRefererFieldOf,
  antiRefererValues,
  type HeaderRuleValues,
  headerRuleBody,
  headerRuleFieldOf,
  headerRuleValues,
  NEW_ANTI_REFERER,
  NEW_HEADER_RULE,
} from './header-rule-form';

type HeaderRow = Omit<HeaderRule, 'siteID'>;

/** The columns of header rules: URL, header, what it matches, mode, switch; memo and dates in the chooser. */
function headerColumns<R extends HeaderRow>(kind: FirewallKind<HeaderRuleInput, R, HeaderRuleValues>) {
  return (context: FirewallColumnsContext) => {
    const { t } = context;
    return [
      patternColumn<R>(t('url'), 'urlRegex', 150),
      { title: t('header'), dataIndex: 'header', ellipsis: true, maxWidth: 160 },
      {
        title: t('match'),
        dataIndex: 'valueRegex',
        ellipsis: true,
        maxWidth: 180,
        render: (value: string, rule: R) =>
          rule.match === 'absent' ? <Tag>{t('matches.absent')}</Tag> : <code>{value}</code>,
      },
      blockTypeColumn<R>(t),
      enabledColumn(kind, context, (rule) => rule.header),
      memoColumn<R>(t, true),
      ...dateColumns<R>(t),
    ];
  };
}

/** Header blocking (routes/firewall-headers.ts): a site firewall kind. */
export const headerKind: FirewallKind<HeaderRuleInput, HeaderRule, HeaderRuleValues> = {
  key: 'header',
  routes: SITE_RULE_KINDS.header.routes,
  resource: 'headerRules',
  schema: SITE_RULE_KINDS.header.input,
  columns: (context) => headerColumns(headerKind)(context),
  Fields: HeaderRuleFields,
  newRule: NEW_HEADER_RULE,
  values: headerRuleValues,
  body: headerRuleBody,
  fieldOf: () => headerRuleFieldOf,
};

/**
 * A domain's calls take `{siteId, domainId}` where a site kind's take `{siteId}`: the panel sends
 * the params it is given (RuleParams), so the domain's calls stand in for the site-shaped ones.
 */
function domainRoutes<B, R>(routes: unknown): FirewallRuleRoutes<B, R> {
  return routes as FirewallRuleRoutes<B, R>;
}

/** A domain's anti-header list (routes/domain-access.ts): header rules of one domain. */
export const antiHeaderKind: FirewallKind<HeaderRuleInput, AntiHeader, HeaderRuleValues> = {
  key: 'antiHeader',
  routes: domainRoutes({
    list: domainAccessRoutes.listAntiHeaders,
    add: domainAccessRoutes.addAntiHeaders,
    update: domainAccessRoutes.updateAntiHeader,
    delete: domainAccessRoutes.deleteAntiHeaders,
  }),
  resource: 'antiHeaders',
  schema: headerRuleInputSchema,
  columns: (context) => headerColumns(antiHeaderKind)(context),
  Fields: HeaderRuleFields,
  newRule: NEW_HEADER_RULE,
  values: headerRuleValues,
  body: headerRuleBody,
  fieldOf: () => headerRuleFieldOf,
};

/** A domain's anti-referer list (routes/domain-access.ts), with the spec's own "created" toast. */
export const antiRefererKind: FirewallKind<AntiRefererInput, AntiReferer, AntiRefererValues> = {
  key: 'antiReferer',
  routes: domainRoutes({
    list: domainAccessRoutes.listAntiReferers,
    add: domainAccessRoutes.addAntiReferers,
    update: domainAccessRoutes.updateAntiReferer,
    delete: domainAccessRoutes.deleteAntiReferers,
  }),
  resource: 'antiReferers',
  schema: antiRefererInputSchema,
  columns: (context) => {
    const { t } = context;
    return [
      patternColumn<AntiReferer>(t('url'), 'urlRegex', 150),
      {
        title: t('listMode'),
        dataIndex: 'mode',
        render: (mode: AntiReferer['mode']) => <Tag>{t(`listModes.${mode}`)}</Tag>,
      },
      {
        title: t('referers'),
        dataIndex: 'referers',
        ellipsis: true,
        maxWidth: 200,
        render: (hosts: string[]) => hosts.join(', '),
      },
      {
        title: t('allowEmpty'),
        dataIndex: 'allowEmpty',
        render: (allow: boolean) => (allow ? t('yes') : t('no')),
      },
      blockTypeColumn<AntiReferer>(t),
      enabledColumn(antiRefererKind, context, (rule) => rule.referers[0] ?? ''),
      memoColumn<AntiReferer>(t, true),
      ...dateColumns<AntiReferer>(t),
    ];
  },
  Fields: AntiRefererFields,
  newRule: NEW_ANTI_REFERER,
  values: antiRefererValues,
  body: antiRefererBody,
  createToast: 'createAntiRefererSuccess',
  fieldOf: () => antiRefererFieldOf,
};
