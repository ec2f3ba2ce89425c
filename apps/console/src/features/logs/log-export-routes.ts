import { clientLogExportRoutes as c, logExportRoutes } from '@rampart/contract';
import type { StatisticsTier } from '../statistics/statistics-routes';

/**
 * The log export calls of a console: the customer's (`user/log/export*`) or the operator's
 * (`client/log/export*`), typed as the customer's — the operator's take the zone and customer
 * filters besides, which the customer's page never sets (as the log search's routes are typed).
 */
export function logExportRoutesOf(tier: StatisticsTier): typeof logExportRoutes {
  if (tier === 'user') return logExportRoutes;
  return {
    createLogExport: c.clientCreateLogExport,
    listLogExports: c.clientListLogExports,
    getLogExport: c.clientGetLogExport,
    downloadLogExport: c.clientDownloadLogExport,
    deleteLogExports: c.clientDeleteLogExports,
    retryLogExports: c.clientRetryLogExports,
  } as unknown as typeof logExportRoutes;
}
