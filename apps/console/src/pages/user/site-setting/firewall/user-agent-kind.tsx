import { SITE_RULE_KINDS, type UserAgentRule, type UserAgentRuleInput } from '@rampart/contract';
import { blockTypeColumn, dateColumns, enabledColumn, memoColumn, patternColumn } from './firewall-columns';
import type { FirewallKind } from './firewall-kinds';
import { UserAgentRuleFields } from './UserAgentRuleFields';
import {
  NEW_USER_AGENT_RULE,
  type UserAgentRuleValues,
  userAgentRuleBody,
  userAgentRuleFieldOf,
  userAgentRuleValues,
} from './user-agent-rule-form';

/**
 * The user-agent rules (routes/firewall-user-agents.ts): a URL pattern, a User-Agent pattern, a
 * protection mode and a switch. The URL (150 px) and the User-Agent pattern (220 px) keep to one
 * line; with the mode, the switch and the actions they fit 1280 px with the sidebar open, the memo
 * and the dates being in the column chooser.
 */
export const userAgentKind: FirewallKind<UserAgentRuleInput, UserAgentRule, UserAgentRuleValues> = {
  key: 'userAgent',
  routes: SITE_RULE_KINDS.userAgent.routes,
  resource: 'userAgentRules',
  schema: SITE_RULE_KINDS.userAgent.input,
  columns: (context) => {
    const { t } = context;
    return [
      patternColumn<UserAgentRule>(t('url'), 'urlRegex', 150),
      patternColumn<UserAgentRule>(t('userAgentRegex'), 'userAgentRegex', 220),
      blockTypeColumn<UserAgentRule>(t),
      enabledColumn(userAgentKind, context, (rule) => rule.userAgentRegex),
      memoColumn<UserAgentRule>(t, true),
      ...dateColumns<UserAgentRule>(t),
    ];
  },
  Fields: UserAgentRuleFields,
  newRule: NEW_USER_AGENT_RULE,
  values: userAgentRuleValues,
  body: userAgentRuleBody,
  fieldOf: () => userAgentRuleFieldOf,
};
