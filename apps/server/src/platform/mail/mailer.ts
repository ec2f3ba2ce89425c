import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OutgoingGuard } from '../http/outgoing.js';
import type { TargetGuard } from '../http/target-guard.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

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
  /**
   * An operator's setting (`client/setting/email`) says how TLS is used: `tls` = `secure`,
   * `starttls` required, `none` never. Absent: `secure`, else STARTTLS when offered.
   */
  tlsMode: z.enum(['tls', 'starttls', 'none']).optional(),
});
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export class MailNotConfiguredError extends Error {}

/** The settings key of an operator's own SMTP server (`client/setting/email`). */
export const operatorSmtpKey = (operatorId: number) => `smtp:${operatorId}`;

/**
 * Sends `mail` through `smtp` (its password already opened); rejects with the server's words. An
 * operator's own server goes through `targets` (platform/http/target-guard.ts): its host resolved
 * and checked once, the connection made to that checked address (the name kept for TLS), so
 * nodemailer resolves nothing itself. `null`: the installation's own server (SMTP_URL or the
 * administrator's setting), which may be a relay on the machine.
 */
export async function sendThrough(
  smtp: SmtpSettings,
  password: string,
  mail: Mail,
  targets: TargetGuard | null,
): Promise<void> {
  const [pinned] = targets ? await targets.addresses(smtp.host) : [];
  const transport = nodemailer.createTransport({
    host: pinned ? pinned.address : smtp.host,
    ...(pinned && !isIP(smtp.host) ? { servername: smtp.host } : {}),
    port: smtp.port,
    secure: smtp.tlsMode === 'tls' || (smtp.tlsMode === undefined && smtp.secure),
    ...(smtp.tlsMode === 'starttls' ? { requireTLS: true } : {}),
    ...(smtp.tlsMode === 'none' ? { ignoreTLS: true } : {}),
    ...(smtp.user ? { auth: { user: smtp.user, pass: password } } : {}),
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

/**
 * Sends mail through an SMTP server read from the config store on each send: the operator's own
 * (`client/setting/email`) when one is named and set, else the installation's (key `smtp`, then SMTP_URL).
 */
export class Mailer {
  private readonly fallback: SmtpSettings | null;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    /** SMTP_URL: used while no mail server is set in the config store. */
    smtpUrl?: string,
    /** The operators' outgoing URL lists: an operator's mail goes out only to a server on its list. */
    private readonly outgoing?: OutgoingGuard,
  ) {
    this.fallback = smtpUrl ? parseSmtpUrl(smtpUrl, box) : null;
  }

  async configured(operatorId?: number): Promise<SmtpSettings | null> {
    return (await this.serverOf(operatorId))?.smtp ?? null;
  }

  /** The server mail goes through, and whether it is the operator's own (then the target guard applies). */
  private async serverOf(operatorId?: number): Promise<{ smtp: SmtpSettings; own: boolean } | null> {
    if (operatorId !== undefined) {
      const own = smtpSettingsSchema.safeParse(await this.settings.get(operatorSmtpKey(operatorId)));
      if (own.success) return { smtp: own.data, own: true };
    }
    const parsed = smtpSettingsSchema.safeParse(await this.settings.get('smtp'));
    const smtp = parsed.success ? parsed.data : this.fallback;
    return smtp ? { smtp, own: false } : null;
  }

  async send(mail: Mail, operatorId?: number): Promise<void> {
    const server = await this.serverOf(operatorId);
    if (!server) throw new MailNotConfiguredError('SMTP is not configured');
    const { smtp } = server;
    if (operatorId !== undefined) await this.outgoing?.check(operatorId, smtpDestination(smtp));
    const targets = server.own ? (this.outgoing?.targets ?? null) : null;
    if (server.own && !targets) throw new MailNotConfiguredError("no target guard for an operator's SMTP server");
    await sendThrough(smtp, smtp.passwordSealed ? this.box.open(smtp.passwordSealed) : '', mail, targets);
  }
}

/** The SMTP server as the outgoing URL list names destinations. */
export function smtpDestination(smtp: Pick<SmtpSettings, 'host' | 'port'>): string {
  return `smtp://${smtp.host.includes(':') ? `[${smtp.host}]` : smtp.host}:${smtp.port}`;
}

/** `smtp://user:pass@host:587?from=Rampart%20%3Cnoreply%40example.com%3E` (smtps:// for TLS on connect). */
export function parseSmtpUrl(raw: string, box: SecretBox): SmtpSettings {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL is not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const secure = url.protocol === 'smtps:';
  return smtpSettingsSchema.parse({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: decodeURIComponent(url.username),
    passwordSealed: url.password ? box.seal(decodeURIComponent(url.password)) : '',
    from: url.searchParams.get('from') ?? `Rampart <noreply@${url.hostname}>`,
    allowInvalidCertificate: url.searchParams.get('allowInvalidCertificate') === 'true',
  });
}
