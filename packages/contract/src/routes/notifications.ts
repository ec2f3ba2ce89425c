import { z } from 'zod';
import { LOCALES } from '../locale.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { outgoingTarget } from '../validators/outgoing-target.js';
import { normalizeHostPort } from '../validators/url.js';
import { addValidationIssue, zEmail } from '../validators/zod.js';

/**
 * Notifications (spec part 2 §7 "System settings": `client/setting/email`, `email/test`,
 * `client/setting/tg`, `tg/test`; part 1 §2 user `notifySetting`; docs/decisions.md
 * "Notifications and alerts").
 *
 * - The operator's channels: its SMTP server and its Telegram bot. Secrets (SMTP password, bot
 *   token) are write-only: answers carry `hasPassword` / `hasToken`, and a save or test that leaves
 *   the secret out (or '') keeps the stored one.
 * - `email/test` sends a real mail with the submitted setting (101020 with the server's words in
 *   `extra.reason` when it is refused); `tg/test` checks the token and sends a message to the chat
 *   (101021 when the token is malformed or refused, or the chat cannot be written to).
 * - Who gets alerts: the operator's `client/setting/notify` (its recipients, its language, the
 *   attack-spike threshold) and each customer's `user/setting/notify` (which of its alerts, which
 *   addresses and which Telegram chat, sent through its operator's channels).
 */

export const SMTP_TLS_MODES = ['tls', 'starttls', 'none'] as const;
export type SmtpTlsMode = (typeof SMTP_TLS_MODES)[number];

/**
 * What an alert is about. The operator's: every kind. A customer's: the kinds about its own sites
 * ({@link CUSTOMER_ALERT_KINDS}).
 */
export const ALERT_KINDS = [
  'nodeDown',
  'nodeUp',
  'attackSpike',
  'certificateRenewalFailed',
  'licenceExpiring',
  'trafficOverPlan',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const CUSTOMER_ALERT_KINDS = ['attackSpike', 'certificateRenewalFailed', 'trafficOverPlan'] as const;
export type CustomerAlertKind = (typeof CUSTOMER_ALERT_KINDS)[number];

/** Attack spike: blocks of one site within the window that raise an alert, until the operator sets others. */
export const DEFAULT_SPIKE_THRESHOLD = 1000;
export const DEFAULT_SPIKE_WINDOW_MINUTES = 5;
/** Recipients per setting. */
export const NOTIFY_EMAILS_MAX = 10;

/** A write-only secret: printable ASCII; '' or absent = keep the stored one. */
const zSecret = z
  .string()
  .max(512, { message: 'tooLong' })
  .regex(/^[\x20-\x7e]*$/, { message: 'invalidCharacter' })
  .optional()
  .transform((s) => (s === '' ? undefined : s));

/** The SMTP server's host name or IPv4 address (no port: that is its own field). */
const zSmtpHost = outgoingTarget(
  z
    .string()
    .max(253, { message: 'tooLong' })
    .transform((value, ctx) => {
      const checked = normalizeHostPort(value);
      if (!checked.ok || checked.value.includes(':')) {
        addValidationIssue(ctx, { ok: false, key: 'wrongFormat' });
        return z.NEVER;
      }
      return checked.value;
    }),
  'host',
);

export const emailSettingInSchema = z.object({
  host: zSmtpHost,
  port: z
    .number({ message: 'invalidPort' })
    .int({ message: 'invalidPort' })
    .min(1, { message: 'invalidPort' })
    .max(65_535, { message: 'invalidPort' }),
  /** `tls`: TLS from the first byte (465); `starttls`: plain, then STARTTLS required (587); `none`: never TLS. */
  tlsMode: z.enum(SMTP_TLS_MODES, { message: 'invalidValue' }),
  /** '' = no authentication. */
  user: z
    .string()
    .max(256, { message: 'tooLong' })
    .regex(/^[\x21-\x7e]*$/, { message: 'invalidCharacter' })
    .default(''),
  password: zSecret,
  /** The sender address of every mail. */
  from: zEmail,
});
export type EmailSettingIn = z.output<typeof emailSettingInSchema>;

export const emailSettingSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  tlsMode: z.enum(SMTP_TLS_MODES),
  user: z.string(),
  from: z.string(),
  hasPassword: z.boolean(),
});
export type EmailSetting = z.infer<typeof emailSettingSchema>;

export const emailTestInSchema = emailSettingInSchema.extend({ to: zEmail });
export type EmailTestIn = z.output<typeof emailTestInSchema>;

/** A Telegram chat: a numeric id (groups and channels are negative) or a public `@channelname`; '' = none. */
export const zTelegramChatId = z
  .string()
  .regex(/^(?:-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})?$/, { message: 'wrongFormat' });

export const tgSettingInSchema = z.object({
  /** The bot's token from BotFather (write-only). */
  botToken: zSecret,
  /** The operator's own chat for its alerts ('' = none). */
  chatId: zTelegramChatId.default(''),
});
export type TgSettingIn = z.output<typeof tgSettingInSchema>;

export const tgSettingSchema = z.object({ chatId: z.string(), hasToken: z.boolean() });
export type TgSetting = z.infer<typeof tgSettingSchema>;

export const tgTestInSchema = z.object({
  botToken: zSecret,
  chatId: zTelegramChatId.refine((s) => s !== '', { message: 'required' }),
});
export type TgTestIn = z.output<typeof tgTestInSchema>;

export const notifyTestResultSchema = z.object({
  /** What was done, e.g. `mail accepted by smtp.example.com for ops@example.com`. */
  detail: z.string(),
});
export type NotifyTestResult = z.infer<typeof notifyTestResultSchema>;

const zEmails = z.array(zEmail).max(NOTIFY_EMAILS_MAX, { message: 'tooMany' });
const zLanguage = z.enum(LOCALES, { message: 'invalidValue' });

/** The operator's own alerts: which kinds, to which addresses, and whether to its Telegram chat. */
export const operatorNotifySchema = z.object({
  kinds: z.array(z.enum(ALERT_KINDS, { message: 'invalidValue' })),
  emails: zEmails,
  /** Send to the chat of the operator's Telegram setting too. */
  telegram: z.boolean(),
  /** The language of the alerts' text (the spec keeps no language per account). */
  language: zLanguage,
});
export type OperatorNotify = z.output<typeof operatorNotifySchema>;

/**
 * The operator's trigger rates (`client/setting/frequency`, the systemSetting "Trigger rates" tab):
 * an attack spike is at least `spikeThreshold` blocked requests (firewall and WAF) of one site
 * within `spikeWindowMinutes`; it raises the `attackSpike` alert. See docs/decisions.md "Trigger rates".
 */
export const frequencySettingSchema = z.object({
  spikeThreshold: z
    .number({ message: 'invalidValue' })
    .int({ message: 'invalidValue' })
    .min(1, { message: 'invalidValue' })
    .max(1_000_000_000, { message: 'invalidValue' }),
  spikeWindowMinutes: z
    .number({ message: 'invalidValue' })
    .int({ message: 'invalidValue' })
    .min(1, { message: 'invalidValue' })
    .max(1440, { message: 'invalidValue' }),
});
export type FrequencySetting = z.output<typeof frequencySettingSchema>;

/** A customer's `notifySetting`: which of its alerts it gets and where. */
export const customerNotifySchema = z.object({
  kinds: z.array(z.enum(CUSTOMER_ALERT_KINDS, { message: 'invalidValue' })),
  emails: zEmails,
  /** A chat the operator's bot may write to ('' = none). */
  telegramChatId: zTelegramChatId,
  language: zLanguage,
});
export type CustomerNotify = z.output<typeof customerNotifySchema>;

const setting = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getEmailSetting = setting.get('client.setting.email', '/client/setting/email', {
  summary: "The operator's SMTP server (null until one is set); the password is never returned",
  response: dataOf(emailSettingSchema.nullable()),
});

export const saveEmailSetting = setting.put('client.setting.email.save', '/client/setting/email', {
  summary: "Sets the operator's SMTP server; a password left out keeps the stored one",
  body: emailSettingInSchema,
  response: dataOf(emailSettingSchema),
});

export const testEmailSetting = setting.post('client.setting.email.test', '/client/setting/email/test', {
  codes: [101020],
  sendsOnDemand: true,
  summary: "Sends a test mail to `to` with the submitted setting; 101020 with the server's words when refused",
  body: emailTestInSchema,
  response: dataOf(notifyTestResultSchema),
});

export const getTgSetting = setting.get('client.setting.tg', '/client/setting/tg', {
  summary: "The operator's Telegram bot (null until one is set); the token is never returned",
  response: dataOf(tgSettingSchema.nullable()),
});

export const saveTgSetting = setting.put('client.setting.tg.save', '/client/setting/tg', {
  summary: "Sets the operator's Telegram bot and chat; a token left out keeps the stored one",
  body: tgSettingInSchema,
  response: dataOf(tgSettingSchema),
});

export const testTgSetting = setting.post('client.setting.tg.test', '/client/setting/tg/test', {
  codes: [101021],
  sendsOnDemand: true,
  summary: 'Checks the bot token and sends a test message to the chat; 101021 when the token or chat is refused',
  body: tgTestInSchema,
  response: dataOf(notifyTestResultSchema),
});

export const getOperatorNotify = setting.get('client.setting.notify', '/client/setting/notify', {
  summary: "Who gets the operator's alerts and in which language (defaults until set)",
  response: dataOf(operatorNotifySchema),
});

export const saveOperatorNotify = setting.put('client.setting.notify.save', '/client/setting/notify', {
  summary: "Sets who gets the operator's alerts",
  body: operatorNotifySchema,
  response: dataOf(operatorNotifySchema),
});

export const getFrequencySetting = setting.get('client.setting.frequency', '/client/setting/frequency', {
  summary: "The operator's trigger rates: the attack-spike alert's threshold and window (defaults until set)",
  response: dataOf(frequencySettingSchema),
});

export const saveFrequencySetting = setting.put('client.setting.frequency.save', '/client/setting/frequency', {
  summary: "Sets the operator's trigger rates (the attack-spike alert's threshold and window)",
  body: frequencySettingSchema,
  response: dataOf(frequencySettingSchema),
});

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['user'], 'user.notify.read'),
  write: tiers(['user'], 'user.notify.write'),
});

export const getCustomerNotify = route.get('user.setting.notify', '/user/setting/notify', {
  summary: "The customer's notifySetting: which of its alerts it gets and where (nothing until set)",
  response: dataOf(customerNotifySchema),
});

export const saveCustomerNotify = route.put('user.setting.notify.save', '/user/setting/notify', {
  summary: "Sets the customer's notifySetting",
  body: customerNotifySchema,
  response: dataOf(customerNotifySchema),
});

export const notificationRoutes = {
  getEmailSetting,
  saveEmailSetting,
  testEmailSetting,
  getTgSetting,
  saveTgSetting,
  testTgSetting,
  getOperatorNotify,
  saveOperatorNotify,
  getFrequencySetting,
  saveFrequencySetting,
  getCustomerNotify,
  saveCustomerNotify,
} as const;
