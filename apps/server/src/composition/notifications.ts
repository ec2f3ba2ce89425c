import { ALERTS_TICK_MS, AlertsJob } from '../modules/alerts/alerts.job.js';
import { AlertsService } from '../modules/alerts/alerts.service.js';
import { bindNotifySettingRoutes } from '../modules/alerts/notify-settings.routes.js';
import { NotifySettingsService } from '../modules/alerts/notify-settings.service.js';
import { TELEGRAM_API_URL, TelegramClient } from '../modules/alerts/telegram.client.js';
import type { AnalyticsStore } from '../modules/analytics/analytics-store.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * Notifications: the operator's e-mail and Telegram channels, who receives alerts, the alerts
 * other areas raise (`alerts.emit`) and the job that delivers them (docs/decisions.md
 * "Notifications and alerts").
 */
export function composeNotifications(
  ctx: AppContext,
  binder: Binder,
  analytics: AnalyticsStore,
): { alerts: AlertsService; alertsJob: AlertsJob } {
  const { app, repos, clock, transactions } = ctx;
  const telegram = new TelegramClient(ctx.config.telegramApiUrl ?? TELEGRAM_API_URL);
  const settings = new NotifySettingsService(repos.settings, ctx.box, transactions, telegram);
  bindNotifySettingRoutes(binder, settings, (accountId) => repos.accounts.topOfTier(accountId));
  let job: AlertsJob | null = null;
  const alerts = new AlertsService(repos.alerts, settings, repos.monitorStatus, analytics, transactions, clock, () =>
    job?.wake(),
  );
  job = new AlertsJob(
    repos.alerts,
    alerts,
    settings,
    ctx.mailer,
    telegram,
    clock,
    ctx.config.alertsTickMs ?? ALERTS_TICK_MS,
    (error) => app.log.error({ err: error }, 'alerts job failed'),
  );
  const started = job;
  app.addHook('onReady', async () => started.start());
  app.addHook('preClose', async () => started.stop());
  return { alerts, alertsJob: started };
}
