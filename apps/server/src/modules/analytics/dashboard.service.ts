import {
  type DashboardLayout,
  type DashboardWidget,
  DEFAULT_DASHBOARD_WIDGETS,
  dashboardWidgetSchema,
} from '@rampart/contract';
import { z } from 'zod';
import type { AnalyticsRepository } from './analytics.repository.js';

const stored = z.array(dashboardWidgetSchema);

/**
 * Dashboard layouts (routes/dashboard.ts): what each account arranged, else the default. A stored
 * layout that no longer passes the contract (a widget type since withdrawn) falls back to the
 * default rather than failing the page.
 */
export class DashboardService {
  constructor(private readonly repo: AnalyticsRepository) {}

  static defaults(): DashboardLayout {
    return { widgets: DEFAULT_DASHBOARD_WIDGETS.map((w) => ({ ...w })), saved: false };
  }

  async get(accountId: number): Promise<DashboardLayout> {
    const raw = await this.repo.dashboard(accountId);
    if (raw === undefined) return DashboardService.defaults();
    const parsed = stored.safeParse(raw);
    return parsed.success ? { widgets: parsed.data, saved: true } : DashboardService.defaults();
  }

  async save(accountId: number, widgets: DashboardWidget[]): Promise<void> {
    await this.repo.saveDashboard(accountId, widgets);
  }
}
