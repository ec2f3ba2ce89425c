import type { AddressInfo } from 'node:net';
import type { EmailSettingIn } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly to: string[];
  readonly raw: string;
}

export interface TestSmtp {
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (or the first already received and not yet taken). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Sends the app's mail through `smtp`, as the SMTP settings an operator saves do. */
export async function mailThrough(app: FastifyInstance, smtp: TestSmtp, from = 'noreply@rampart.test'): Promise<void> {
  await app.rampart.settings.put('smtp', { host: '127.0.0.1', port: smtp.port, from });
}

/** The operator's SMTP setting for `smtp` (no TLS, no login), as `client/setting/email` takes it; override any field. */
export function smtpSetting(smtp: Pick<TestSmtp, 'port'>, over: Partial<EmailSettingIn> = {}) {
  return {
    host: '127.0.0.1',
    port: smtp.port,
    tlsMode: 'none' as EmailSettingIn['tlsMode'],
    user: '',
    password: undefined as string | undefined,
    from: 'alerts@rampart.test',
    ...over,
  };
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => !taken.has(m) && m.to.includes(to));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message with quoted-printable soft breaks and escapes undone (enough to read links and codes). */
export function decodedText(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
