import { type AntiCCRule, type AntiCCRuleInput, SITE_RULE_KINDS } from '@rampart/contract';
import { AntiCCRuleFields } from './AntiCCRuleFields';
import {
  type AntiCCRuleValues,
  antiCCRuleBody,
  antiCCRuleFieldOf,
  antiCCRuleValues,
  NEW_ANTI_CC_RULE,
} from './anti-cc-rule-form';
import { AntiCCErrorCell, AntiCCFrequencyCell } from './FrequencyLimitCells';
import { blockTypeColumn, dateColumns, enabledColumn, memoColumn, patternColumn } from './firewall-columns';
import type { FirewallKind } from './firewall-kinds';

/**
 * The anti-CC rules (routes/firewall-anti-cc.ts): a URL pattern, when the rule challenges, the
 * challenge, the error limit and a switch. The URL (150 px) keeps to one line and the two limits
 * wrap within 130 px each, so with the actions they fit 1280 px with the sidebar open; the error
 * action, the memo and the dates are in the column chooser.
 */
export const antiCCKind: FirewallKind<AntiCCRuleInput, AntiCCRule, AntiCCRuleValues> = {
  key: 'antiCC',
  routes: SITE_RULE_KINDS.antiCC.routes,
  resource: 'antiCCRules',
  schema: SITE_RULE_KINDS.antiCC.input,
  columns: (context) => {
    const { t } = context;
    return [
      patternColumn<AntiCCRule>(t('url'), 'urlRegex', 150),
      {
        title: t('frequency'),
        key: 'frequency',
        render: (_: unknown, rule: AntiCCRule) => <AntiCCFrequencyCell rule={rule} />,
      },
      blockTypeColumn<AntiCCRule>(t),
      {
        title: t('errorLimit'),
        key: 'errorLimit',
        render: (_: unknown, rule: AntiCCRule) => <AntiCCErrorCell rule={rule} />,
      },
      enabledColumn(antiCCKind, context, (rule) => rule.urlRegex),
      memoColumn<AntiCCRule>(t, true),
      ...dateColumns<AntiCCRule>(t),
    ];
  },
  Fields: AntiCCRuleFields,
  newRule: NEW_ANTI_CC_RULE,
  values: antiCCRuleValues,
  body: antiCCRuleBody,
  fieldOf: () => antiCCRuleFieldOf,
};
