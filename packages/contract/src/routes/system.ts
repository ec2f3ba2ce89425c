import { z } from 'zod';
import { authParams, dataOf, publicAccess } from '../route.js';
import { routeFamily } from '../route-family.js';

/** Liveness and readiness of the control plane, for load balancers and the operator's monitoring. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  /** `pglite` (embedded) or `postgres`. */
  database: z.enum(['pglite', 'postgres']),
  databaseOk: z.boolean(),
  /** Identifier of this installation, made on first start and kept in the config store. */
  instanceId: z.string(),
  uptimeSeconds: z.number().int().min(0),
});

const route = routeFamily({ tags: ['system'], read: publicAccess });

export const health = route.get('system.health', '/health', {
  summary: 'Health of the control plane and its config store',
  response: dataOf(healthSchema),
});

/** Branding shown on login pages and in the consoles' chrome (spec part 1 §3 "Logo info"). */
export const logoInfoSchema = z.object({
  backgroundImage: z.string(),
  copyright: z.string(),
  favicon: z.string(),
  logo: z.string(),
  title: z.string(),
  sidebarLogo: z.string(),
  sidebarSimpleLogo: z.string(),
  version: z.string(),
  subTitle: z.string(),
  description: z.string(),
});
export type LogoInfo = z.infer<typeof logoInfoSchema>;

export const logo = route.get('auth.logo', '/{auth}/logo', {
  summary:
    "Branding for a console's login pages; needs no token. `operator` (an operator's login name) picks " +
    "that operator's logo set for the client and user consoles; without it, the first operator's",
  tags: ['auth'],
  params: authParams,
  query: z.object({ operator: z.string().max(256).optional() }),
  response: dataOf(logoInfoSchema),
});

export const systemRoutes = { health, logo } as const;
