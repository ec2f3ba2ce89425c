import { z } from 'zod';
import {
  type NginxTuning,
  type NginxTuningSection,
  nginxCustomSchema,
  nginxHttpSchema,
  nginxStreamSchema,
  nginxWorkerSchema,
} from '../edge/nginx-tuning.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

/**
 * The operator's own nginx settings (spec part 2 §7 "System settings": client/setting nginx
 * http/stream/worker/custom), the defaults of every zone's nodes. A zone whose nginx settings are
 * on overrides them value by value and adds its custom directives after the operator's.
 */

/** GET, PUT (replace) and DELETE (back to nginx's defaults) for one section. */
function operatorSectionRoutes<S extends NginxTuningSection, B extends z.ZodType<NginxTuning[S]>>(section: S, body: B) {
  const path = `/client/setting/nginx/${section}`;
  return {
    get: route.get(`client.setting.nginx.${section}`, path, {
      summary: `The operator's nginx ${section} settings, the defaults of every zone's nodes`,
      response: dataOf(body),
    }),
    put: route.put(`client.setting.nginx.${section}.put`, path, {
      summary: `Replaces the operator's nginx ${section} settings; every node checks them with nginx -t and keeps its running configuration when refused`,
      body: z.object({ value: body }),
      response: dataOf(body),
    }),
    delete: route.delete(`client.setting.nginx.${section}.delete`, path, {
      summary: `Returns the operator's nginx ${section} settings to nginx's defaults`,
      response: dataOf(body),
    }),
  };
}

export const OPERATOR_NGINX_SECTION_ROUTES = {
  worker: operatorSectionRoutes('worker', nginxWorkerSchema),
  http: operatorSectionRoutes('http', nginxHttpSchema),
  stream: operatorSectionRoutes('stream', nginxStreamSchema),
  custom: operatorSectionRoutes('custom', nginxCustomSchema),
} as const;

export const operatorNginxRoutes = Object.fromEntries(
  Object.entries(OPERATOR_NGINX_SECTION_ROUTES).flatMap(([section, r]) => [
    [`get_${section}`, r.get],
    [`put_${section}`, r.put],
    [`delete_${section}`, r.delete],
  ]),
);
