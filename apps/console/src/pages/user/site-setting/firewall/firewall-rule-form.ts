import { z } from 'zod';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { schemaRules } from '../../../../forms/zod-rules';
import type { FirewallKind, FirewallRuleRow } from './firewall-kinds';

/** The antd rules of a kind's dialog fields: its values checked as the body they make, with the contract's schema. */
export function firewallRuleRules<B extends object, R extends FirewallRuleRow, V extends object>(
  kind: Pick<FirewallKind<B, R, V>, 'body' | 'schema'>,
) {
  return schemaRules(z.preprocess((values) => kind.body(values as V), kind.schema));
}

/**
 * The field of a server error path: the add's `data.0.field…` and the update's `field…` land on
 * `field` when the dialog has it.
 */
export function ruleFieldOf(fields: readonly string[]): FieldNameOf {
  return (path) => {
    const [field] = path[0] === 'data' ? path.slice(2) : path;
    return field !== undefined && fields.includes(field) ? field : undefined;
  };
}
