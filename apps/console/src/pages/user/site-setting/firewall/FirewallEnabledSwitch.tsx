import { Switch } from 'antd';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { FirewallKind, FirewallRuleRow, RuleParams } from './firewall-kinds';

/** A rule of a kind that can be turned off without being deleted. */
export type SwitchableRow = FirewallRuleRow & { enabled: boolean };

interface FirewallEnabledSwitchProps<B extends object, R extends SwitchableRow, V extends { enabled: boolean }> {
  params: RuleParams;
  kind: FirewallKind<B, R, V>;
  rule: R;
  /** The caller holds `user.firewall.write`; without it the switch only shows the state. */
  canWrite: boolean;
  /** The switch's name for assistive technology ("Rule curl|wget on"). */
  label: string;
}

/**
 * A rule turned on or off in its row: the rule is replaced (no kind has a call of its own for
 * this) with the body of its other fields as listed.
 */
export function FirewallEnabledSwitch<B extends object, R extends SwitchableRow, V extends { enabled: boolean }>({
  params,
  kind,
  rule,
  canWrite,
  label,
}: FirewallEnabledSwitchProps<B, R, V>) {
  const update = useRouteMutation('user', kind.routes.update, {
    input: (enabled: boolean) => ({
      params,
      body: { ...kind.body({ ...kind.values(rule), enabled }), id: rule.id },
    }),
    invalidates: changes(kind.resource),
    success: () => toastText('updateSuccess'),
  });
  return (
    <Switch
      size="small"
      checked={rule.enabled}
      disabled={!canWrite}
      loading={update.isPending}
      aria-label={label}
      onChange={(enabled) => update.mutate(enabled)}
    />
  );
}
