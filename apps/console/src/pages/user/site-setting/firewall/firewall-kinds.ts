import type { firewallRuleRoutes, ToastKey } from '@rampart/contract';
import type { FormInstance, FormRule } from 'antd';
import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import type { z } from 'zod';
import type { Resource } from '../../../../app/resource-changes';
import type { ListColumns } from '../../../../components/FitTable';
import type { FieldNameOf } from '../../../../forms/server-errors';

/**
 * The firewall kinds a site has, in the order of the tab's sub-navigation (the order the edge
 * checks them in, after the whitelist). A new kind is its declaration in the contract
 * (rule-kinds/site-firewall.ts: its calls and schema come from there), a key here, a
 * {@link FirewallKind} of its own (list-kinds.tsx, user-agent-kind.tsx, frequency-kinds.tsx,
 * anti-cc-kind.tsx), its entry in FirewallTab's panels and its texts under `firewall.kinds`,
 * `hints`, `empty` and `form.*Title`.
 */
export const FIREWALL_KIND_KEYS = [
  'whitelist',
  'blacklist',
  'abuseIP',
  'geo',
  'header',
  'userAgent',
  'intervalLimit',
  'secondLimit',
  'antiCC',
] as const;
export type FirewallKindKey = (typeof FIREWALL_KIND_KEYS)[number];
/** The kinds that are lists of rules (IP trust protection is one setting of the site: AbuseIPPanel). */
export type FirewallRuleKindKey = Exclude<FirewallKindKey, 'abuseIP'>;
/** A domain's own lists (domain-access/), shown with the same panel. */
export const DOMAIN_LIST_KEYS = ['antiReferer', 'antiHeader'] as const;
export type DomainListKey = (typeof DOMAIN_LIST_KEYS)[number];
/**
 * A layer-4 site's kinds (routes/firewall-l4.ts), in the order of its firewall tab's
 * sub-navigation (L4FirewallTab): each rule names one of the site's ports.
 */
export const L4_KIND_KEYS = ['l4Whitelist', 'l4Blacklist', 'position', 'limitConn'] as const;
export type L4KindKey = (typeof L4_KIND_KEYS)[number];

export function isL4Kind(value: string | null): value is L4KindKey {
  return (L4_KIND_KEYS as readonly (string | null)[]).includes(value);
}

/** The path parameters of a kind's calls: the site, and the domain for a domain's lists. */
export interface RuleParams {
  siteId: number;
  domainId?: number;
}

export function isFirewallKind(value: string | null): value is FirewallKindKey {
  return (FIREWALL_KIND_KEYS as readonly (string | null)[]).includes(value);
}

/** What every kind's rules have: the shared screens key, date and describe rows with these. */
export interface FirewallRuleRow {
  id: number;
  memo: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The four calls of a kind whose rules are sent as `B` and listed as `R` (firewallRuleRoutes in
 * routes/firewall-lists.ts): the contract's calls of each kind are checked against this shape.
 */
export type FirewallRuleRoutes<B, R> = ReturnType<
  typeof firewallRuleRoutes<z.ZodType<unknown, B>, z.ZodType<unknown, B & { id: number }>, z.ZodType<unknown, R>>
>;

/** What a kind's columns are made with. */
export interface FirewallColumnsContext {
  t: TFunction<'firewall'>;
  params: RuleParams;
  /** The caller holds `user.firewall.write`: cells that change a rule work. */
  canWrite: boolean;
}

/** What a kind's dialog fields get: the antd rules of each field, from the kind's schema. */
export interface FirewallFieldsProps {
  rules: (field: string) => FormRule[];
  /** The site (and domain) the rule belongs to: a layer-4 rule's port is one of the site's. */
  params: RuleParams;
}

/**
 * One firewall kind as the shared panel, table and dialog use it: its calls, what its changes make
 * stale, its columns and dialog fields, and how the dialog's values `V` become the body `B` of a
 * rule (checked with the contract's schema before they are sent).
 */
export interface FirewallKind<B extends object, R extends FirewallRuleRow, V extends object> {
  key: FirewallRuleKindKey | DomainListKey | L4KindKey;
  routes: FirewallRuleRoutes<B, R>;
  resource: Resource;
  /** The contract's schema of one rule as sent. */
  schema: z.ZodType<unknown, B>;
  /** The list's columns, the row actions left out. */
  columns: (context: FirewallColumnsContext) => ListColumns<R>;
  /** The dialog's fields. */
  Fields: ComponentType<FirewallFieldsProps>;
  /** A new rule's values. */
  newRule: V;
  /** A listed rule's values, to edit. */
  values: (rule: R) => V;
  /** The body of one rule from the values. */
  body: (values: V) => B;
  /** The spec's own toast for a created rule, where it has one (else the generic "created"). */
  createToast?: ToastKey;
  /** Where a server field error of the add (`data.0.field…`) or the update (`field…`) goes in the dialog. */
  fieldOf: (form: FormInstance<V>) => FieldNameOf;
}
