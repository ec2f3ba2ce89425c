import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { SettingsRepository } from '../../modules/system/settings.repository.js';
import type { SecretBox } from '../crypto/secret-box.js';

/** SMTP settings as kept in the config store (key `smtp`); the password is sealed. */
export const smtpSettingsSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  /** TLS from the first byte (465); otherwise STARTTLS is used when the server offers it. */
  secure: z.boolean().default(false),
  user: z.string().default(''),
  passwordSealed: z.string().default(''),
  from: z.string().min(3),
  /** Accept a self-signed certificate (a relay on the same host); off by default. */
  allowInvalidCertificate: z.boolean().default(false),
});
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export class MailNotConfiguredError extends Error {}

/** Sends mail through the operator's SMTP server, read from the config store on each send. */
export class Mailer {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
  ) {}

  async configured(): Promise<SmtpSettings | null> {
    const parsed = smtpSettingsSchema.safeParse(await this.settings.get('smtp'));
    return parsed.success ? parsed.data : null;
  }

  async send(mail: Mail): Promise<void> {
    const smtp = await this.configured();
    if (!smtp) throw new MailNotConfiguredError('SMTP is not configured');
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user
        ? { auth: { user: smtp.user, pass: smtp.passwordSealed ? this.box.open(smtp.passwordSealed) : '' } }
        : {}),
      tls: { rejectUnauthorized: !smtp.allowInvalidCertificate },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
    } finally {
      transport.close();
    }
  }
}
