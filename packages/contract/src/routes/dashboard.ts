import { z } from 'zod';
import { SELF_PERMISSION } from '../permissions.js';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { STATISTICS_CARDS, STATISTICS_SERIES, STATISTICS_SERIES_TYPES, STATISTICS_TOP_IDS } from './statistics.js';

/**
 * The dashboards' widget layouts (spec part 1 §2 `dashboard`, §7 `GET/PUT client/dashboard`, part
 * 2 §7 `GET/PUT user/dashboard`, `GET dashboard/default`). A layout belongs to the account that
 * saved it; an account that saved none gets its tier's default. A widget shows a statistics card,
 * top list or time series (statistics.ts) on a 24-column grid.
 */

export const DASHBOARD_COLUMNS = 24;
export const DASHBOARD_WIDGETS_MAX = 24;
export const DASHBOARD_WIDGET_KINDS = ['card', 'top', 'series'] as const;

export const dashboardWidgetSchema = z
  .strictObject({
    kind: z.enum(DASHBOARD_WIDGET_KINDS),
    /** The card id, top-list id or series type. */
    type: z.number().int(),
    /** Column (0–23) and row of its top-left corner, and its size in columns and rows. */
    x: z
      .number()
      .int()
      .min(0)
      .max(DASHBOARD_COLUMNS - 1),
    y: z.number().int().min(0).max(200),
    w: z.number().int().min(1).max(DASHBOARD_COLUMNS),
    h: z.number().int().min(1).max(12),
  })
  .superRefine((w, ctx) => {
    const ok =
      w.kind === 'card'
        ? STATISTICS_CARDS.includes(w.type)
        : w.kind === 'top'
          ? (STATISTICS_TOP_IDS as number[]).includes(w.type)
          : (STATISTICS_SERIES_TYPES as number[]).includes(w.type);
    if (!ok) ctx.addIssue({ code: 'custom', path: ['type'], message: 'invalidValue' });
    if (w.x + w.w > DASHBOARD_COLUMNS) ctx.addIssue({ code: 'custom', path: ['w'], message: 'tooBig' });
  });
export type DashboardWidget = z.infer<typeof dashboardWidgetSchema>;

export const dashboardLayoutSchema = z.object({
  widgets: z.array(dashboardWidgetSchema).max(DASHBOARD_WIDGETS_MAX),
  /** False while the account uses its tier's default layout. */
  saved: z.boolean(),
});
export type DashboardLayout = z.infer<typeof dashboardLayoutSchema>;

const S = STATISTICS_SERIES;
/** What a new account's dashboard shows: request, IP and status cards, traffic and requests, and the top lists. */
export const DEFAULT_DASHBOARD_WIDGETS: readonly DashboardWidget[] = [
  { kind: 'card', type: 3, x: 0, y: 0, w: 8, h: 2 },
  { kind: 'card', type: 4, x: 8, y: 0, w: 8, h: 2 },
  { kind: 'card', type: 5, x: 16, y: 0, w: 8, h: 2 },
  { kind: 'series', type: S.traffic, x: 0, y: 2, w: 12, h: 4 },
  { kind: 'series', type: S.bandwidth, x: 12, y: 2, w: 12, h: 4 },
  { kind: 'series', type: S.requests, x: 0, y: 6, w: 12, h: 4 },
  { kind: 'series', type: S.status, x: 12, y: 6, w: 12, h: 4 },
  { kind: 'series', type: S.cache, x: 0, y: 10, w: 12, h: 4 },
  { kind: 'series', type: S.upstream, x: 12, y: 10, w: 12, h: 4 },
  { kind: 'top', type: 19, x: 0, y: 14, w: 12, h: 4 },
  { kind: 'top', type: 11, x: 12, y: 14, w: 12, h: 4 },
];

const putBody = z.object({ widgets: z.array(dashboardWidgetSchema).max(DASHBOARD_WIDGETS_MAX) });

const route = routeFamily({
  tags: ['statistics'],
  read: tiers(['user'], SELF_PERMISSION),
  write: tiers(['user'], SELF_PERMISSION),
});

export const getUserDashboard = route.get('user.dashboard.get', '/user/dashboard', {
  summary: "The caller's dashboard layout (its tier's default until it saves one)",
  response: dataOf(dashboardLayoutSchema),
});
export const putUserDashboard = route.put('user.dashboard.put', '/user/dashboard', {
  summary: "Saves the caller's dashboard layout",
  body: putBody,
  response: okReply,
});
export const getClientDashboard = route.get('client.dashboard.get', '/client/dashboard', {
  access: tiers(['client'], SELF_PERMISSION),
  summary: "The caller's dashboard layout (its tier's default until it saves one)",
  response: dataOf(dashboardLayoutSchema),
});
export const putClientDashboard = route.put('client.dashboard.put', '/client/dashboard', {
  access: tiers(['client'], SELF_PERMISSION),
  summary: "Saves the caller's dashboard layout",
  body: putBody,
  response: okReply,
});
export const getDefaultDashboard = route.get('dashboard.default', '/dashboard/default', {
  access: tiers(['user', 'client'], SELF_PERMISSION),
  summary: 'The default dashboard layout (what "reset" restores)',
  response: dataOf(dashboardLayoutSchema),
});

export const dashboardRoutes = {
  getUserDashboard,
  putUserDashboard,
  getClientDashboard,
  putClientDashboard,
  getDefaultDashboard,
} as const;
