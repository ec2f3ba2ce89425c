import { firewallUserAgentRoutes, type UserAgentRule } from '@rampart/contract';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { userAgentRuleValues } from './user-agent-rule-form';

interface UserAgentEnabledSwitchProps {
  siteId: number;
  rule: UserAgentRule;
  /** The caller holds `user.firewall.write`; without it the switch only shows the state. */
  canWrite: boolean;
}

/**
 * A user-agent rule turned on or off in its row: the rule is replaced (the kind has no call of its
 * own for this) with its other fields as listed.
 */
export function UserAgentEnabledSwitch({ siteId, rule, canWrite }: UserAgentEnabledSwitchProps) {
  const { t } = useTranslation('firewall');
  const update = useRouteMutation('user', firewallUserAgentRoutes.updateUserAgentRule, {
    input: (enabled: boolean) => ({ params: { siteId }, body: { ...userAgentRuleValues(rule), enabled, id: rule.id } }),
    invalidates: changes('userAgentRules'),
    success: () => toastText('updateSuccess'),
  });
  return (
    <Switch
      size="small"
      checked={rule.enabled}
      disabled={!canWrite}
      loading={update.isPending}
      aria-label={t('enabledOf', { pattern: rule.userAgentRegex })}
      onChange={(enabled) => update.mutate(enabled)}
    />
  );
}
