import {
  authCredentialRoutes,
  authGroupRoutes,
  corsRoutes,
  domainRoutes,
  firewallReputationRoutes,
  L4_RULE_KINDS,
  logPushRoutes,
  logRoutes,
  luaAclRoutes,
  SITE_RULE_KINDS,
  siteCacheRoutes,
  sitePortRoutes,
  siteSettingRoutes,
  tokenAuthRoutes,
  wafRoutes,
} from '@rampart/contract';
import type { NumberForm } from './number-walk-types';

const kind = SITE_RULE_KINDS;

/** The customer console's number boxes, and the analytics pages both consoles share (number-walk.ts says what the walk does with them). */
export const CUSTOMER_NUMBER_FORMS: readonly NumberForm[] = [
  // Customer console: a site's settings.
  {
    form: 'domain upstreams',
    source: 'pages/user/site-setting/domains/UpstreamsList.tsx',
    route: domainRoutes.createDomains,
    boxes: [
      { label: 'domains:upstream.portOf', labelParams: { row: 1 }, field: 'domains.upstreams.port' },
      { label: 'domains:upstream.weightOf', labelParams: { row: 1 }, field: 'domains.upstreams.weight' },
    ],
  },
  {
    form: 'site port',
    source: 'pages/user/site-setting/ports/PortFormModal.tsx',
    route: sitePortRoutes.addSitePorts,
    boxes: [{ label: 'ports:port', field: 'ports.port' }],
  },
  {
    form: 'site port upstreams',
    source: 'pages/user/site-setting/ports/PortUpstreamsModal.tsx',
    route: sitePortRoutes.addSitePortUpstreams,
    boxes: [
      { label: 'ports:upstream.newPort', field: 'upstreams.port' },
      { label: 'ports:upstream.newWeight', field: 'upstreams.weight' },
    ],
  },
  {
    form: 'site port batch',
    source: 'pages/user/site-setting/ports/PortBatchModal.tsx',
    route: sitePortRoutes.batchCreateSitePorts,
    boxes: [
      { label: 'ports:batch.from', labelParams: { what: 'Listen ports' }, field: 'portFrom' },
      { label: 'ports:batch.to', labelParams: { what: 'Listen ports' }, field: 'portTo' },
    ],
  },
  {
    form: 'cache rule',
    source: 'pages/user/site-setting/cache/CacheRuleFormModal.tsx',
    route: siteCacheRoutes.addCacheRules,
    boxes: [{ label: 'cache:priority', field: 'data.priority' }],
  },
  {
    form: 'rate limit',
    source: 'pages/user/site-setting/options/RateLimitsCard.tsx',
    route: siteSettingRoutes.addRateRules,
    boxes: [{ label: 'siteSettings:rates.rate', field: 'data.rate' }],
  },
  {
    form: 'site abuse ip',
    source: 'pages/user/site-setting/firewall/AbuseIPPanel.tsx',
    route: firewallReputationRoutes.updateAbuseIPSetting,
    boxes: [{ label: 'firewall:abuseIP.threshold', field: 'threshold' }],
  },
  {
    form: 'interval limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.intervalLimit.routes.add,
    boxes: [
      { label: 'firewall:priority', field: 'data.priority' },
      { label: 'firewall:seconds', field: 'data.seconds' },
      { label: 'firewall:times', field: 'data.times' },
    ],
  },
  {
    form: 'second limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.secondLimit.routes.add,
    boxes: [
      { label: 'firewall:rate', field: 'data.rate' },
      { label: 'firewall:burst', field: 'data.burst' },
      { label: 'firewall:blockSeconds', field: 'data.blockSeconds' },
    ],
  },
  {
    form: 'anti cc',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.antiCC.routes.add,
    boxes: [
      { label: 'firewall:seconds', field: 'data.seconds' },
      { label: 'firewall:times', field: 'data.times' },
      { label: 'firewall:errorSeconds', field: 'data.errorSeconds' },
      { label: 'firewall:errorTimes', field: 'data.errorTimes' },
    ],
  },
  {
    form: 'l4 connection limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    // The Create dialog (editing a limit sends the same boxes through routes.update).
    route: L4_RULE_KINDS.limitConn.routes.add,
    boxes: [
      { label: 'firewall:l4.max', field: 'data.max' },
      { label: 'firewall:rate', field: 'data.rate' },
      { label: 'firewall:burst', field: 'data.burst' },
      { label: 'firewall:l4.delay', field: 'data.delay' },
    ],
  },
  {
    form: 'auth rule',
    source: 'pages/user/site-setting/auth/AuthRuleFormModal.tsx',
    route: authGroupRoutes.createRule,
    boxes: [{ label: 'authGroups:rule.priority', field: 'priority' }],
  },
  {
    form: 'jwt credential',
    source: 'pages/user/site-setting/auth/CredentialsDrawer.tsx',
    route: authCredentialRoutes.createJwtAuth,
    boxes: [{ label: 'authGroups:jwt.leeway', field: 'leeway' }],
  },
  {
    form: 'cors module',
    source: 'pages/user/site-setting/modules/ModuleFields.tsx',
    route: corsRoutes.create,
    boxes: [{ label: 'modules:cors.maxAge', field: 'modules.maxAge' }],
  },
  {
    form: 'waf exclusion',
    source: 'pages/user/site-setting/modules/WafFields.tsx',
    // A new module's first exclusion (the same box adds one from a WAF event, through wafRoutes.update).
    route: wafRoutes.create,
    boxes: [{ label: 'modules:waf.exclusion.ruleId', labelSuffix: ' 1', field: 'modules.exclusions.ruleId' }],
  },
  {
    form: 'acl rule',
    source: 'pages/user/site-setting/modules/AclRuleFormModal.tsx',
    route: luaAclRoutes.addRule,
    boxes: [
      { label: 'modules:acl.priority', field: 'priority' },
      // The first condition's boxes (a frequency condition's).
      { label: 'modules:acl.condition.count', labelSuffix: ' 1', field: 'conditions.count' },
      { label: 'modules:acl.condition.seconds', labelSuffix: ' 1', field: 'conditions.seconds' },
    ],
  },
  {
    form: 'token auth',
    source: 'pages/user/site-setting/modules/TokenAuthFormModal.tsx',
    route: tokenAuthRoutes.addRules,
    boxes: [{ label: 'modules:token.expireSeconds', field: 'items.expire' }],
  },
  // Both consoles: analytics.
  {
    form: 'log push destination',
    source: 'pages/analytics/LogPushEventModal.tsx',
    route: logPushRoutes.userCreateLogPushEvent,
    boxes: [{ label: 'logPush:fields.port', field: 'destination.port' }],
  },
  {
    form: 'access log search',
    source: 'pages/analytics/LoggerSearchRow.tsx',
    route: logRoutes.userAccessLogs,
    boxes: [{ label: 'logs:filters.status', field: 'status' }],
  },
  {
    form: 'waf log search',
    source: 'pages/analytics/LoggerSearchRow.tsx',
    route: logRoutes.userWafLogs,
    boxes: [{ label: 'logs:filters.ruleId', field: 'ruleId' }],
  },
  {
    form: 'log push log search',
    source: 'pages/analytics/LogPushLogsTab.tsx',
    route: logPushRoutes.userLogPushLogs,
    part: 'query',
    boxes: [{ label: 'logPush:filters.id', field: 'ID' }],
  },
];
