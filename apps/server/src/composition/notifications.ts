import { ALERTS_TICK_MS, AlertsJob } from '../modules/alerts/alerts.job.js';
import { AlertsService } from '../modules/alerts/alerts.service.js';
import { NotifySettingsService } from '../modules/alerts/notify-settings.service.js';
import { TELEGRAM_API_URL, TelegramClient } from '../modules/alerts/telegram.client.js';
import type { StatisticsReads } from '../modules/analytics/store/statistics-reads.js';
import type { AppContext } from './context.js';

/**
 * Notifications: the operator's e-mail and Telegram channels and who receives alerts (their routes
 * are bound with the others: notify-settings.routes.ts), the alerts every area may raise
 * (`ctx.alerts.emit`) and the job that delivers them (docs/decisions.md "Notifications and alerts").
 * Made before the areas, so that each finds `alerts` in the context.
 */
export function createNotifications(
  ctx: Omit<AppContext, 'alerts'>,
  analytics: StatisticsReads,
): { alerts: AlertsService; alertsJob: AlertsJob; settings: NotifySettingsService } {
  const { app, repos, clock, transactions } = ctx;
  const telegram = new TelegramClient(ctx.outgoing, ctx.config.telegramApiUrl ?? TELEGRAM_API_URL);
  const settings = new NotifySettingsService(repos.settings, ctx.box, transactions, telegram, ctx.outgoing);
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
  return { alerts, alertsJob: started, settings };
}
