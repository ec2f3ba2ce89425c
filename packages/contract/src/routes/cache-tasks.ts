import { z } from 'zod';
import { cacheUrlListSchema, cacheUrlResultSchema } from '../edge/cache-urls.js';
import { pageQuery } from '../http.js';
import { dataOf, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import { nodeCommandStatusSchema } from './node-commands.js';
import { nodeCommandSchema } from './node-operations.js';
import { siteParams } from './sites.js';
import { zoneParams } from './zones.js';

/**
 * Clearing and warming the edge's cache: a node's cache, all or by URLs; zone preheat tasks; a
 * site's cache, all or by URLs. The spec names the calls
 * (`DELETE node currentCache (ids)`, `DELETE node cache (ids, type, urls)`, `DELETE client/site
 * currentCache`, zone `preheatCaches GET/POST (urls)`); the customer's URL purge and the task
 * shapes are our design:
 *
 * - Whole caches are cleared by generation, never by deleting files: a site's cache generation and a
 *   node's cache epoch are both part of every cache key, so the old entries stop matching at once
 *   and age out of the disk cache by themselves (its size limit and `inactive` time).
 * - URLs are purged and preheated by node commands (routes/node-commands.ts): each node that serves
 *   the URLs runs the command and reports a result per URL (edge/cache-urls.ts). A task groups the
 *   commands of one call; its state is that of its commands (running until each node answered or
 *   the command expired).
 * - The customer purges URLs of its own site's domains only (a URL of another host is 101003 on
 *   `urls.N`); the task goes to every node that serves the site. The operator purges on the nodes
 *   it names; a preheat goes to every enabled node of the zone.
 */

const ids = zIds(500);

export const CACHE_TASK_KINDS = ['purge', 'preheat'] as const;
/** running: some node has not answered; succeeded / failed: every node did; partial: a mix. */
export const CACHE_TASK_STATES = ['running', 'succeeded', 'failed', 'partial'] as const;

export const cacheTaskNodeSchema = z.object({
  nodeId: z.number().int(),
  nodeName: z.string(),
  commandId: z.number().int(),
  status: nodeCommandStatusSchema,
  message: z.string(),
  results: z.array(cacheUrlResultSchema),
});

export const cacheTaskSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CACHE_TASK_KINDS),
  state: z.enum(CACHE_TASK_STATES),
  urls: z.array(z.string()),
  createdAt: z.string(),
  nodes: z.array(cacheTaskNodeSchema),
});
export type CacheTask = z.infer<typeof cacheTaskSchema>;

const route = routeFamily({
  tags: ['nodes', 'cache'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: tiers(['client'], 'client.nodes.write'),
});

export const clearNodesCache = route.delete(
  'client.zone.nodes.currentCache.delete',
  '/client/zone/{zoneID}/node/currentCache',
  {
    summary:
      "Clears the whole cache of nodes of the zone: raises each node's cache epoch (in every cache key) and queues a command that answers once the node serves with it",
    params: zoneParams,
    body: z.object({ ids }),
    response: dataOf(z.array(nodeCommandSchema)),
  },
);

export const purgeNodesCache = route.delete('client.zone.nodes.cache.delete', '/client/zone/{zoneID}/node/cache', {
  summary: 'Purges URLs from the cache of nodes of the zone (one command per node, results per URL)',
  params: zoneParams,
  /** `type` is `url`, the one kind the edge can purge (see edge/cache-urls.ts). */
  body: z.object({ ids, type: z.literal('url').default('url'), urls: cacheUrlListSchema }),
  response: dataOf(z.array(nodeCommandSchema)),
});

export const clearClientSitesCache = route.delete('client.sites.currentCache.delete', '/client/site/currentCache', {
  access: tiers(['client'], 'client.sites.write'),
  summary: "Clears the whole cache of the operator's sites (all or none): a new cache generation per site",
  tags: ['sites', 'cache'],
  body: z.object({ ids }),
  response: dataOf(z.array(z.object({ id: z.number().int(), generation: z.number().int() }))),
});

export const purgeSiteUrls = route.post('user.site.purgeCache.create', '/user/site/{siteId}/setting/purgeCache', {
  access: tiers(['user'], 'user.siteSettings.write'),
  summary:
    "Purges URLs of the site's domains from the cache of every node that serves the site (a task with results per node and URL)",
  tags: ['cache'],
  params: siteParams,
  body: z.object({ urls: cacheUrlListSchema }),
  response: dataOf(cacheTaskSchema),
});

export const listSitePurgeTasks = route.get('user.site.purgeCache.list', '/user/site/{siteId}/setting/purgeCache', {
  summary: "The site's URL purge tasks, newest first, with each node's results",
  tags: ['cache'],
  params: siteParams,
  query: pageQuery,
  response: pageOf(cacheTaskSchema),
});

export const preheatZoneCaches = route.post(
  'client.zone.preheatCaches.create',
  '/client/zone/{zoneID}/setting/preheatCaches',
  {
    summary:
      "Preheats URLs: every enabled node of the zone fetches them through its own nginx so that the sites' cache rules store them",
    tags: ['zones', 'cache'],
    params: zoneParams,
    body: z.object({ urls: cacheUrlListSchema }),
    response: dataOf(cacheTaskSchema),
  },
);

export const listZonePreheatTasks = route.get(
  'client.zone.preheatCaches.list',
  '/client/zone/{zoneID}/setting/preheatCaches',
  {
    access: tiers(['client'], 'client.nodes.read'),
    summary: "The zone's preheat tasks, newest first, with each node's results per URL",
    tags: ['zones', 'cache'],
    params: zoneParams,
    query: pageQuery,
    response: pageOf(cacheTaskSchema),
  },
);

export const cacheTaskRoutes = {
  clearNodesCache,
  purgeNodesCache,
  clearClientSitesCache,
  purgeSiteUrls,
  listSitePurgeTasks,
  preheatZoneCaches,
  listZonePreheatTasks,
} as const;
