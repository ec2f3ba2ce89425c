import { DEFAULT_REGION_RULE, type GEO_BLOCK_TYPES, type GeoRule, type GeoRuleInput } from '@rampart/contract';
import { ruleFieldOf } from './firewall-rule-form';

/** A geo rule's form: the body's fields as they are. */
export interface GeoRuleValues {
  isBlack: boolean;
  geoIDs: string[];
  urlRegex: string;
  blockType: (typeof GEO_BLOCK_TYPES)[number];
  enabled: boolean;
  memo: string;
}

/** A new rule: the spec's default region rule (black list, no regions, empty URL pattern, five-second shield). */
export const NEW_GEO_RULE: GeoRuleValues = {
  isBlack: DEFAULT_REGION_RULE.isBlack,
  geoIDs: [],
  urlRegex: DEFAULT_REGION_RULE.urlRegex,
  blockType: DEFAULT_REGION_RULE.blockType,
  enabled: true,
  memo: '',
};

export function geoRuleValues(rule: GeoRule): GeoRuleValues {
  return {
    isBlack: rule.isBlack,
    geoIDs: rule.geoIDs,
    urlRegex: rule.urlRegex,
    // A stored rule holds one of the modes the contract accepts.
    blockType: rule.blockType as GeoRuleValues['blockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/** The body of a rule: the URL pattern trimmed as every kind's is. */
export function geoRuleBody(values: GeoRuleValues): GeoRuleInput {
  return {
    isBlack: values.isBlack ?? true,
    geoIDs: values.geoIDs ?? [],
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    blockType: values.blockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const geoRuleFieldOf = ruleFieldOf(['isBlack', 'geoIDs', 'urlRegex', 'blockType', 'enabled', 'memo']);
