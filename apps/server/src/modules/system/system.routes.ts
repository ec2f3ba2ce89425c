import { systemRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SystemService } from './system.service.js';

export function bindSystemRoutes(binder: Binder, system: SystemService): void {
  binder.bind(systemRoutes.health, async (_input, { reply }) => {
    const health = await system.health();
    // Load balancers read the status code: take a node without its database out of rotation.
    if (health.status !== 'ok') reply.status(503);
    return { data: health };
  });
}
