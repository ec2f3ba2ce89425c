import type { AnyRoute } from '../route.js';
import { accountRoutes } from './accounts.js';
import { authRoutes } from './auth.js';
import { certificateRoutes } from './certificates.js';
import { domainRoutes } from './domains.js';
import { groupRoutes } from './groups.js';
import { monitoringRoutes } from './monitoring.js';
import { nodeRoutes } from './nodes.js';
import { productRoutes } from './products.js';
import { siteRoutes } from './sites.js';
import { systemRoutes } from './system.js';
import { zoneSettingRoutes } from './zone-settings.js';
import { zoneRoutes } from './zones.js';

export * from './accounts.js';
export * from './auth.js';
export * from './certificates.js';
export * from './domains.js';
export * from './groups.js';
export * from './monitoring.js';
export * from './nodes.js';
export * from './products.js';
export * from './sites.js';
export * from './system.js';
export * from './zone-settings.js';
export * from './zones.js';

/** Every declared call, grouped by area. The server binds each one; a test checks none is left unbound. */
export const ROUTE_GROUPS = {
  system: systemRoutes,
  auth: authRoutes,
  accounts: accountRoutes,
  nodes: nodeRoutes,
  zones: zoneRoutes,
  zoneSettings: zoneSettingRoutes,
  groups: groupRoutes,
  products: productRoutes,
  sites: siteRoutes,
  domains: domainRoutes,
  certificates: certificateRoutes,
  monitoring: monitoringRoutes,
} as const;

export const ALL_ROUTES: readonly AnyRoute[] = Object.values(ROUTE_GROUPS).flatMap((group) =>
  Object.values(group as Record<string, AnyRoute>),
);
