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

export const listWhitelistRules = whitelistKind.routes.list;
export const addWhitelistRules = whitelistKind.routes.add;
export const updateWhitelistRule = whitelistKind.routes.update;
export const deleteWhitelistRules = whitelistKind.routes.delete;
export const listBlacklistRules = blacklistKind.routes.list;
export const addBlacklistRules = blacklistKind.routes.add;
export const updateBlacklistRule = blacklistKind.routes.update;
export const deleteBlacklistRules = blacklistKind.routes.delete;
export const firewallListRoutes = {
  listWhitelistRules,
  addWhitelistRules,
  updateWhitelistRule,
  deleteWhitelistRules,
  listBlacklistRules,
  addBlacklistRules,
  updateBlacklistRule,
  deleteBlacklistRules,
} as const;

export const listUserAgentRules = userAgentKind.routes.list;
export const addUserAgentRules = userAgentKind.routes.add;
export const updateUserAgentRule = userAgentKind.routes.update;
export const deleteUserAgentRules = userAgentKind.routes.delete;
export const firewallUserAgentRoutes = {
  listUserAgentRules,
  addUserAgentRules,
  updateUserAgentRule,
  deleteUserAgentRules,
} as const;

export const listHeaderRules = headerKind.routes.list;
export const addHeaderRules = headerKind.routes.add;
export const updateHeaderRule = headerKind.routes.update;
export const deleteHeaderRules = headerKind.routes.delete;
export const firewallHeaderRoutes = { listHeaderRules, addHeaderRules, updateHeaderRule, deleteHeaderRules } as const;

export const listIntervalLimits = intervalLimitKind.routes.list;
export const addIntervalLimits = intervalLimitKind.routes.add;
export const updateIntervalLimit = intervalLimitKind.routes.update;
export const deleteIntervalLimits = intervalLimitKind.routes.delete;
export const listSecondLimits = secondLimitKind.routes.list;
export const addSecondLimits = secondLimitKind.routes.add;
export const updateSecondLimit = secondLimitKind.routes.update;
export const deleteSecondLimits = secondLimitKind.routes.delete;
export const firewallFrequencyRoutes = {
  listIntervalLimits,
  addIntervalLimits,
  updateIntervalLimit,
  deleteIntervalLimits,
  listSecondLimits,
  addSecondLimits,
  updateSecondLimit,
  deleteSecondLimits,
} as const;

export const listAntiCCRules = antiCCKind.routes.list;
export const addAntiCCRules = antiCCKind.routes.add;
export const updateAntiCCRule = antiCCKind.routes.update;
export const deleteAntiCCRules = antiCCKind.routes.delete;
export const firewallAntiCCRoutes = { listAntiCCRules, addAntiCCRules, updateAntiCCRule, deleteAntiCCRules } as const;

export const listGeoRules = geoKind.routes.list;
export const addGeoRules = geoKind.routes.add;
export const updateGeoRule = geoKind.routes.update;
export const deleteGeoRules = geoKind.routes.delete;
export const firewallGeoRoutes = { listGeoRules, addGeoRules, updateGeoRule, deleteGeoRules } as const;
