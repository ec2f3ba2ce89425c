import { overviewRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { OverviewService } from './overview.service.js';

export function bindOverviewRoutes(binder: Binder, overview: OverviewService): void {
  binder.bind(overviewRoutes.getClientOverview, async (_input, { caller }) => ({ data: await overview.get(caller) }));
}
