import { type GeoRule, type GeoRuleInput, SITE_RULE_KINDS } from '@rampart/contract';
import {
  blockTypeColumn,
  dateColumns,
  enabledColumn,
  listKindColumn,
  memoColumn,
  patternColumn,
} from './firewall-columns';
import type { FirewallKind } from './firewall-kinds';
import { GeoRuleFields } from './GeoRuleFields';
import { GeoRegionsCell } from './geo-regions';
import { type GeoRuleValues, geoRuleBody, geoRuleFieldOf, geoRuleValues, NEW_GEO_RULE } from './geo-rule-form';

/**
 * The geo rules (routes/firewall-geos.ts): black or white, the regions (countries, and cities with
 * the operator's City database), a URL pattern, a protection mode and a switch.
 */
export const geoKind: FirewallKind<GeoRuleInput, GeoRule, GeoRuleValues> = {
  key: 'geo',
  routes: SITE_RULE_KINDS.geo.routes,
  resource: 'geoRules',
  schema: SITE_RULE_KINDS.geo.input,
  columns: (context) => {
    const { t } = context;
    return [
      listKindColumn<GeoRule>(t),
      {
        title: t('regions'),
        dataIndex: 'geoIDs',
        render: (ids: string[]) => <GeoRegionsCell ids={ids} />,
      },
      patternColumn<GeoRule>(t('url'), 'urlRegex', 150),
      blockTypeColumn<GeoRule>(t),
      enabledColumn(geoKind, context, (rule) => rule.urlRegex),
      memoColumn<GeoRule>(t, true),
      ...dateColumns<GeoRule>(t),
    ];
  },
  Fields: GeoRuleFields,
  newRule: NEW_GEO_RULE,
  values: geoRuleValues,
  body: geoRuleBody,
  fieldOf: () => geoRuleFieldOf,
};
