import {
  CUSTOMER_ALERT_KINDS,
  type CustomerNotify,
  customerNotifySchema,
  DEFAULT_SPIKE_THRESHOLD,
  DEFAULT_SPIKE_WINDOW_MINUTES,
  type EmailSetting,
  type EmailSettingIn,
  type EmailTestIn,
  type FrequencySetting,
  frequencySettingSchema,
  type NotifyTestResult,
  type OperatorNotify,
  operatorNotifySchema,
  type TgSetting,
  type TgSettingIn,
  type TgTestIn,
} from '@rampart/contract';
import { z } from 'zod';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { OutgoingGuard } from '../../platform/http/outgoing.js';
import { invalidFields } from '../../platform/http/validation.js';
import {
  operatorSmtpKey,
  type SmtpSettings,
  sendThrough,
  smtpDestination,
  smtpSettingsSchema,
} from '../../platform/mail/mailer.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { type TelegramClient, TelegramError } from './telegram.client.js';

const tgKey = (operatorId: number) => `telegram:${operatorId}`;
const operatorNotifyKey = (operatorId: number) => `notify:operator:${operatorId}`;
const customerNotifyKey = (customerId: number) => `notify:customer:${customerId}`;

const storedTgSchema = z.object({ chatId: z.string(), tokenSealed: z.string() });
type StoredTg = z.infer<typeof storedTgSchema>;

/** The operator's alerts until it sets who gets them: every kind, to its Telegram chat if it has one. */
const OPERATOR_DEFAULT: OperatorNotify = {
  kinds: ['nodeDown', 'nodeUp', 'attackSpike', 'certificateRenewalFailed', 'licenceExpiring', 'trafficOverPlan'],
  emails: [],
  telegram: true,
  language: 'en_US',
};
const FREQUENCY_DEFAULT: FrequencySetting = {
  spikeThreshold: DEFAULT_SPIKE_THRESHOLD,
  spikeWindowMinutes: DEFAULT_SPIKE_WINDOW_MINUTES,
};
const frequencyKey = (operatorId: number) => `frequency:operator:${operatorId}`;
/** A customer's alerts until it sets where they go: every kind of its own, to nowhere. */
const CUSTOMER_DEFAULT: CustomerNotify = {
  kinds: [...CUSTOMER_ALERT_KINDS],
  emails: [],
  telegramChatId: '',
  language: 'en_US',
};

/**
 * The channels alerts go through (the operator's SMTP server and Telegram bot, their secrets sealed
 * with the installation's SecretBox) and who receives them (contract notifications.ts).
 */
export class NotifySettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly transactions: Transactions,
    private readonly telegram: TelegramClient,
    private readonly outgoing: OutgoingGuard,
  ) {}

  // --- e-mail -------------------------------------------------------------------------------

  async smtpOf(operatorId: number): Promise<SmtpSettings | null> {
    const parsed = smtpSettingsSchema.safeParse(await this.settings.get(operatorSmtpKey(operatorId)));
    return parsed.success ? parsed.data : null;
  }

  async getEmail(operatorId: number): Promise<EmailSetting | null> {
    const smtp = await this.smtpOf(operatorId);
    return smtp ? viewSmtp(smtp) : null;
  }

  /** The submitted setting as stored, the stored password filling one left out. */
  private async smtpFor(operatorId: number, input: EmailSettingIn): Promise<SmtpSettings> {
    const stored = await this.smtpOf(operatorId);
    return smtpSettingsSchema.parse({
      host: input.host,
      port: input.port,
      secure: input.tlsMode === 'tls',
      tlsMode: input.tlsMode,
      user: input.user,
      passwordSealed: input.password !== undefined ? this.box.seal(input.password) : (stored?.passwordSealed ?? ''),
      from: input.from,
    });
  }

  /** 101003 `targetNotAllowed` on `host` when it is, or resolves to, an address every send would refuse. */
  private async checkSmtpHost(host: string): Promise<void> {
    if (!(await this.outgoing.targets.savable(host))) throw invalidFields([{ field: 'host', key: 'targetNotAllowed' }]);
  }

  async saveEmail(operatorId: number, input: EmailSettingIn): Promise<EmailSetting> {
    await this.checkSmtpHost(input.host);
    return this.transactions.run(async () => {
      await this.settings.lock(operatorSmtpKey(operatorId));
      const smtp = await this.smtpFor(operatorId, input);
      await this.settings.put(operatorSmtpKey(operatorId), smtp);
      return viewSmtp(smtp);
    });
  }

  /** Sends a real mail with the submitted setting; 101020 with the server's words when it is refused. */
  async testEmail(operatorId: number, input: EmailTestIn): Promise<NotifyTestResult> {
    await this.checkSmtpHost(input.host);
    const smtp = await this.smtpFor(operatorId, input);
    try {
      await this.outgoing.check(operatorId, smtpDestination(smtp));
      await sendThrough(
        smtp,
        smtp.passwordSealed ? this.box.open(smtp.passwordSealed) : '',
        {
          to: input.to,
          subject: 'Rampart: test mail',
          text: 'This test mail shows that Rampart can send alerts through this SMTP server.',
        },
        this.outgoing.targets,
      );
    } catch (error) {
      throw new AppError(101020, { extra: { reason: reasonOf(error) }, cause: error });
    }
    return { detail: `mail to ${input.to} accepted by ${smtp.host}:${smtp.port}` };
  }

  // --- Telegram -----------------------------------------------------------------------------

  private async storedTg(operatorId: number): Promise<StoredTg | null> {
    const parsed = storedTgSchema.safeParse(await this.settings.get(tgKey(operatorId)));
    return parsed.success ? parsed.data : null;
  }

  async getTg(operatorId: number): Promise<TgSetting | null> {
    const stored = await this.storedTg(operatorId);
    return stored ? { chatId: stored.chatId, hasToken: stored.tokenSealed !== '' } : null;
  }

  /** The bot token and the operator's chat, for deliveries; null when no token is set. */
  async botOf(operatorId: number): Promise<{ token: string; chatId: string } | null> {
    const stored = await this.storedTg(operatorId);
    if (!stored || stored.tokenSealed === '') return null;
    return { token: this.box.open(stored.tokenSealed), chatId: stored.chatId };
  }

  private async tokenFor(operatorId: number, given: string | undefined): Promise<string> {
    if (given !== undefined) return given;
    const stored = await this.storedTg(operatorId);
    if (stored && stored.tokenSealed !== '') return this.box.open(stored.tokenSealed);
    throw new AppError(101021, { extra: { reason: 'no bot token is set' } });
  }

  async saveTg(operatorId: number, input: TgSettingIn): Promise<TgSetting> {
    return this.transactions.run(async () => {
      await this.settings.lock(tgKey(operatorId));
      const stored = await this.storedTg(operatorId);
      const tokenSealed = input.botToken !== undefined ? this.box.seal(input.botToken) : (stored?.tokenSealed ?? '');
      await this.settings.put(tgKey(operatorId), { chatId: input.chatId, tokenSealed } satisfies StoredTg);
      return { chatId: input.chatId, hasToken: tokenSealed !== '' };
    });
  }

  /** Asks the API who the bot is, then writes to the chat; 101021 with the API's words when refused. */
  async testTg(operatorId: number, input: TgTestIn): Promise<NotifyTestResult> {
    const token = await this.tokenFor(operatorId, input.botToken);
    try {
      const name = await this.telegram.botName(operatorId, token);
      await this.telegram.sendMessage(
        operatorId,
        token,
        input.chatId,
        'Rampart: this test message shows that alerts reach this chat.',
      );
      return { detail: `bot @${name} wrote to chat ${input.chatId}` };
    } catch (error) {
      if (error instanceof TelegramError)
        throw new AppError(101021, { extra: { reason: error.message }, cause: error });
      throw error;
    }
  }

  // --- recipients ---------------------------------------------------------------------------

  async operatorNotify(operatorId: number): Promise<OperatorNotify> {
    const parsed = operatorNotifySchema.safeParse(await this.settings.get(operatorNotifyKey(operatorId)));
    return parsed.success ? parsed.data : OPERATOR_DEFAULT;
  }

  async saveOperatorNotify(operatorId: number, input: OperatorNotify): Promise<OperatorNotify> {
    const value = { ...input, kinds: [...new Set(input.kinds)], emails: [...new Set(input.emails)] };
    await this.settings.put(operatorNotifyKey(operatorId), value);
    return value;
  }

  /**
   * The operator's trigger rates: its own setting, else the spike threshold and window an older
   * release kept in its alert recipients (`notify:operator:N`), else the defaults.
   */
  async frequency(operatorId: number): Promise<FrequencySetting> {
    for (const key of [frequencyKey(operatorId), operatorNotifyKey(operatorId)]) {
      const parsed = frequencySettingSchema.safeParse(await this.settings.get(key));
      if (parsed.success) return parsed.data;
    }
    return FREQUENCY_DEFAULT;
  }

  async saveFrequency(operatorId: number, input: FrequencySetting): Promise<FrequencySetting> {
    await this.settings.put(frequencyKey(operatorId), input);
    return input;
  }

  async customerNotify(customerId: number): Promise<CustomerNotify> {
    const parsed = customerNotifySchema.safeParse(await this.settings.get(customerNotifyKey(customerId)));
    return parsed.success ? parsed.data : CUSTOMER_DEFAULT;
  }

  async saveCustomerNotify(customerId: number, input: CustomerNotify): Promise<CustomerNotify> {
    const value = { ...input, kinds: [...new Set(input.kinds)], emails: [...new Set(input.emails)] };
    await this.settings.put(customerNotifyKey(customerId), value);
    return value;
  }
}

function viewSmtp(smtp: SmtpSettings): EmailSetting {
  return {
    host: smtp.host,
    port: smtp.port,
    tlsMode: smtp.tlsMode ?? (smtp.secure ? 'tls' : 'starttls'),
    user: smtp.user,
    from: smtp.from,
    hasPassword: smtp.passwordSealed !== '',
  };
}

/** A refusal's words, one line, bounded. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}
