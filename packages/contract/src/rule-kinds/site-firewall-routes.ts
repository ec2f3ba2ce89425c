import { namedCalls } from './rule-kind.js';
import {
  antiCCKind,
  blacklistKind,
  geoKind,
  headerKind,
  intervalLimitKind,
  secondLimitKind,
  userAgentKind,
  whitelistKind,
} from './site-firewall.js';

// The four calls of each site firewall kind, by the names the rest of the code knows them by
// (routes/firewall-lists.ts firewallRuleRoutes makes them from the kind's declaration).

const whitelist = namedCalls(whitelistKind.routes, 'WhitelistRules', 'WhitelistRule');
export const { listWhitelistRules, addWhitelistRules, updateWhitelistRule, deleteWhitelistRules } = whitelist;
const blacklist = namedCalls(blacklistKind.routes, 'BlacklistRules', 'BlacklistRule');
export const { listBlacklistRules, addBlacklistRules, updateBlacklistRule, deleteBlacklistRules } = blacklist;
export const firewallListRoutes = { ...whitelist, ...blacklist } as const;

export const firewallUserAgentRoutes = namedCalls(userAgentKind.routes, 'UserAgentRules', 'UserAgentRule');
export const { listUserAgentRules, addUserAgentRules, updateUserAgentRule, deleteUserAgentRules } =
  firewallUserAgentRoutes;

export const firewallHeaderRoutes = namedCalls(headerKind.routes, 'HeaderRules', 'HeaderRule');
export const { listHeaderRules, addHeaderRules, updateHeaderRule, deleteHeaderRules } = firewallHeaderRoutes;

const intervalLimits = namedCalls(intervalLimitKind.routes, 'IntervalLimits', 'IntervalLimit');
export const { listIntervalLimits, addIntervalLimits, updateIntervalLimit, deleteIntervalLimits } = intervalLimits;
const secondLimits = namedCalls(secondLimitKind.routes, 'SecondLimits', 'SecondLimit');
export const { listSecondLimits, addSecondLimits, updateSecondLimit, deleteSecondLimits } = secondLimits;
export const firewallFrequencyRoutes = { ...intervalLimits, ...secondLimits } as const;

export const firewallAntiCCRoutes = namedCalls(antiCCKind.routes, 'AntiCCRules', 'AntiCCRule');
export const { listAntiCCRules, addAntiCCRules, updateAntiCCRule, deleteAntiCCRules } = firewallAntiCCRoutes;

export const firewallGeoRoutes = namedCalls(geoKind.routes, 'GeoRules', 'GeoRule');
export const { listGeoRules, addGeoRules, updateGeoRule, deleteGeoRules } = firewallGeoRoutes;
