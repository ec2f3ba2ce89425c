import {
  type AnyRoute,
  createMonitorGroup,
  createMonitorNode,
  createZone,
  type EmailSettingIn,
  getCustomerNotify,
  getEmailSetting,
  getFrequencySetting,
  getOperatorNotify,
  getTgSetting,
  initializeNodes,
  reportProbeResults,
  saveCustomerNotify,
  saveEmailSetting,
  saveFrequencySetting,
  saveOperatorNotify,
  saveTgSetting,
  testEmailSetting,
  testTgSetting,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { decodedText, type ReceivedMail, smtpSetting, startSmtp, type TestSmtp } from './helpers/smtp.js';
import { startTelegramStandIn, type TelegramStandIn } from './helpers/telegram-standin.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Notifications (contract routes/notifications.ts): the operator's SMTP server and Telegram bot,
// tested against a real SMTP server on loopback and a stand-in of the Bot API; who gets alerts; and
// alerts raised by the monitors' verdicts, delivered by the job with retries, never across operators.
const clock = manualClock();
let t: TestApp;
let smtp: TestSmtp;
let tg: TelegramStandIn;
let client: Token;
let rival: Token;
let user: Token;
let rivalUser: Token;
let rivalCustomer: number;
const OPERATOR_CHAT = '1001';
const CUSTOMER_CHAT = '-1002';
const RIVAL_CHAT = '1003';

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const email = (over: Partial<EmailSettingIn> = {}) => smtpSetting(smtp, over);

beforeAll(async () => {
  [smtp, tg] = await Promise.all([startSmtp(), startTelegramStandIn([OPERATOR_CHAT, CUSTOMER_CHAT, RIVAL_CHAT])]);
  t = await createTestApp({ clock: clock.now, config: { telegramApiUrl: tg.url, alertsTickMs: 0 } });
  client = await signIn(t.app, 'client');
  const rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival');
  user = await signIn(t.app, 'user');
  rivalCustomer = await addAccount(t.app, 'user', 'rivalcustomer', rivalId);
  rivalUser = await signIn(t.app, 'user', 'rivalcustomer');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), tg?.close()]);
});

describe('client/setting/email', () => {
  it('is null until set; saves with the password sealed and never answered', async () => {
    expect((await as(client, getEmailSetting)).json()).toEqual({ data: null });
    const res = await as(client, saveEmailSetting, { body: email({ user: 'relay', password: 's3cret-pass' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      host: '127.0.0.1',
      port: smtp.port,
      tlsMode: 'none',
      user: 'relay',
      from: 'alerts@rampart.test',
      hasPassword: true,
    });
    expect(res.body).not.toContain('s3cret-pass');
    const stored = JSON.stringify(await t.app.rampart.settings.get(`smtp:${await rootId(t.app, 'client')}`));
    expect(stored).not.toContain('s3cret-pass');
    // A save without the password keeps it.
    const again = await as(client, saveEmailSetting, { body: email() });
    expect(again.json().data).toMatchObject({ user: '', hasPassword: true });
    // Another operator has none.
    expect((await as(rival, getEmailSetting)).json()).toEqual({ data: null });
  });

  it('refuses bad fields with 101003 naming them', async () => {
    const res = await as(client, saveEmailSetting, {
      body: { ...email(), host: 'no spaces', from: 'not-an-address', tlsMode: 'ssl' as 'tls' },
    });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res).sort()).toEqual(['from', 'host', 'tlsMode']);
  });

  it('email/test sends a real mail through the submitted server', async () => {
    const res = await as(client, testEmailSetting, { body: { ...email(), to: 'ops@example.test' } });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.next('ops@example.test');
    expect(decodedText(mail)).toContain('Subject: Rampart: test mail');
  });

  it('email/test answers 101020 with the server’s words when it is refused', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('mailbox unavailable here'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const port = (refusing.server.address() as { port: number }).port;
      const res = await as(client, testEmailSetting, { body: { ...email({ port }), to: 'ops@example.test' } });
      expect(res.json().code).toBe(101020);
      expect(res.json().extra.reason).toContain('mailbox unavailable here');
      // STARTTLS required of a server that does not offer it.
      const tls = await as(client, testEmailSetting, { body: { ...email({ tlsMode: 'starttls' }), to: 'a@b.test' } });
      expect(tls.json().code).toBe(101020);
      expect(tls.json().extra.reason).toMatch(/STARTTLS/i);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

describe('client/setting/tg', () => {
  it('saves the token sealed and never answers it; a customer cannot call it', async () => {
    expect((await as(client, getTgSetting)).json()).toEqual({ data: null });
    const res = await as(client, saveTgSetting, { body: { botToken: tg.token, chatId: OPERATOR_CHAT } });
    expect(res.json()).toEqual({ data: { chatId: OPERATOR_CHAT, hasToken: true } });
    expect(JSON.stringify(await t.app.rampart.settings.get(`telegram:${await rootId(t.app, 'client')}`))).not.toContain(
      tg.token,
    );
    expect((await as(client, getTgSetting)).body).not.toContain(tg.token);
    expect((await as(user, getTgSetting)).json().code).toBe(101018);
    const bad = await as(client, saveTgSetting, { body: { chatId: 'not a chat' } });
    expect(fieldNames(bad)).toEqual(['chatId']);
  });

  it('tg/test writes to the chat through the Bot API (a stand-in here)', async () => {
    const res = await as(client, testTgSetting, { body: { chatId: OPERATOR_CHAT } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.detail).toContain('rampart_standin_bot');
    expect(tg.messages.at(-1)).toMatchObject({ chatId: OPERATOR_CHAT });
  });

  it('tg/test answers 101021 for a refused or malformed token and an unknown chat', async () => {
    const refused = await as(client, testTgSetting, {
      body: { botToken: '123456789:AAWrongTokenWrongTokenWrongToken0', chatId: OPERATOR_CHAT },
    });
    expect(refused.json()).toMatchObject({ code: 101021, extra: { reason: 'Unauthorized' } });
    const malformed = await as(client, testTgSetting, { body: { botToken: 'nonsense', chatId: OPERATOR_CHAT } });
    expect(malformed.json().code).toBe(101021);
    const chat = await as(client, testTgSetting, { body: { chatId: '999' } });
    expect(chat.json()).toMatchObject({ code: 101021, extra: { reason: 'Bad Request: chat not found' } });
    // The rival operator has no token stored.
    expect((await as(rival, testTgSetting, { body: { chatId: RIVAL_CHAT } })).json().code).toBe(101021);
  });
});

describe('notify settings', () => {
  it('the operator’s: defaults until set, then as saved', async () => {
    expect((await as(client, getOperatorNotify)).json().data).toMatchObject({
      emails: [],
      telegram: true,
    });
    const res = await as(client, saveOperatorNotify, {
      body: {
        kinds: ['nodeDown', 'nodeUp', 'attackSpike'],
        emails: ['noc@example.test'],
        telegram: true,
        language: 'zh_CN',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await as(client, getOperatorNotify)).json().data).toMatchObject({ emails: ['noc@example.test'] });
    expect((await as(rival, getOperatorNotify)).json().data.emails).toEqual([]);
  });

  it('the operator’s trigger rates: defaults until set, validated per field, its own', async () => {
    expect((await as(client, getFrequencySetting)).json().data).toEqual({
      spikeThreshold: 1000,
      spikeWindowMinutes: 5,
    });
    const bad = await as(client, saveFrequencySetting, { body: { spikeThreshold: 0, spikeWindowMinutes: 1441 } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['spikeThreshold', 'spikeWindowMinutes']);
    const saved = await as(client, saveFrequencySetting, { body: { spikeThreshold: 40, spikeWindowMinutes: 2 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await as(client, getFrequencySetting)).json().data).toEqual({ spikeThreshold: 40, spikeWindowMinutes: 2 });
    expect((await as(rival, getFrequencySetting)).json().data).toEqual({ spikeThreshold: 1000, spikeWindowMinutes: 5 });
    // The customer tier has no such call.
    expect((await as(user, getFrequencySetting)).statusCode).not.toBe(200);
  });

  it('the customer’s notifySetting: nothing until set, validated, its own', async () => {
    expect((await as(user, getCustomerNotify)).json().data).toMatchObject({ emails: [], telegramChatId: '' });
    const bad = await as(user, saveCustomerNotify, {
      body: { kinds: ['nodeDown' as 'attackSpike'], emails: ['x'], telegramChatId: '', language: 'en_US' },
    });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['emails.0', 'kinds.0']);
    const res = await as(user, saveCustomerNotify, {
      body: { kinds: ['attackSpike'], emails: ['me@customer.test'], telegramChatId: CUSTOMER_CHAT, language: 'zh_TW' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await as(rivalUser, getCustomerNotify)).json().data.emails).toEqual([]);
    expect((await as(client, getCustomerNotify)).json().code).toBe(101018);
  });

  it('a sub-user reads its customer’s setting with the key, and is refused without it', async () => {
    const customerId = await rootId(t.app, 'user');
    await giveRole(t.app, user, 'user', await addAccount(t.app, 'user', 'notify-reader', customerId), [
      'user.notify.read',
    ]);
    await addAccount(t.app, 'user', 'no-keys', customerId);
    const reader = await signIn(t.app, 'user', 'notify-reader');
    expect((await as(reader, getCustomerNotify)).json().data).toMatchObject({ emails: ['me@customer.test'] });
    const write = await as(reader, saveCustomerNotify, {
      body: { kinds: [], emails: [], telegramChatId: '', language: 'en_US' },
    });
    expect(write.json().code).toBe(101018);
    expect((await as(await signIn(t.app, 'user', 'no-keys'), getCustomerNotify)).json().code).toBe(101018);
    // An operator's sub-account that may only read settings cannot change the channels.
    await giveRole(
      t.app,
      client,
      'client',
      await addAccount(t.app, 'client', 'settings-reader', await rootId(t.app, 'client')),
      ['client.settings.read'],
    );
    const opReader = await signIn(t.app, 'client', 'settings-reader');
    expect((await as(opReader, getEmailSetting)).json().data).toMatchObject({ host: '127.0.0.1' });
    expect((await as(opReader, saveEmailSetting, { body: email() })).json().code).toBe(101018);
    expect((await as(opReader, testTgSetting, { body: { chatId: OPERATOR_CHAT } })).json().code).toBe(101018);
  });
});

describe('alerts', () => {
  let monitor: JoinedNode;
  let edge: JoinedNode;
  let groupId: number;
  const report = (ok: boolean) =>
    nodeSend(t.app, monitor, reportProbeResults, {
      body: { results: [{ groupId, nodeId: edge.nodeId, ok, ...(ok ? {} : { reason: '443 ECONNREFUSED' }) }] },
    });
  const alertsOf = async () => t.app.rampart.alerts.recent(await rootId(t.app, 'client'), 100);

  beforeAll(async () => {
    const zoneId = (await as(client, createZone, { body: { name: 'Asia' } })).json().data.id;
    edge = await joinNode(t.app, client, 'edge-alerts');
    expect((await as(client, initializeNodes, { body: { ids: [edge.nodeId], zoneID: zoneId } })).statusCode).toBe(200);
    monitor = await joinNode(t.app, client, 'probe-alerts');
    const monitorId = (await as(client, createMonitorNode, { body: { nodeID: monitor.nodeId, memo: '' } })).json().data
      .id;
    const group = await as(client, createMonitorGroup, {
      body: {
        name: 'alerts',
        intervalSeconds: 10,
        timeoutSeconds: 2,
        failureThreshold: 2,
        monitorIDs: [monitorId],
        nodeIDs: [edge.nodeId],
      },
    });
    groupId = group.json().data.id;
    // The rival operator's recipients, which must never hear of this operator's nodes.
    await as(rival, saveEmailSetting, { body: email() });
    await as(rival, saveTgSetting, { body: { botToken: tg.token, chatId: RIVAL_CHAT } });
    await as(rival, saveOperatorNotify, {
      body: {
        kinds: ['nodeDown', 'nodeUp'],
        emails: ['rival-noc@example.test'],
        telegram: true,
        language: 'en_US',
      },
    });
  });

  it('node down: one alert, mailed and sent to Telegram in the recipient’s language; none again while down', async () => {
    expect((await report(true)).statusCode).toBe(200);
    await t.app.rampart.alertsJob.drain({ scan: false });
    // The first verdict (unknown → up) tells nobody.
    expect(smtp.mails.filter((m) => m.to.includes('noc@example.test'))).toHaveLength(0);
    await report(false);
    clock.advance(1000);
    await report(false);
    await t.app.rampart.alertsJob.drain({ scan: false });
    const mail = mailText(await smtp.next('noc@example.test'));
    expect(mail).toContain('发现节点 edge-alerts（127.0.0.1）离线：443 ECONNREFUSED');
    expect(tg.messages.filter((m) => m.chatId === OPERATOR_CHAT).at(-1)?.text).toContain('节点 edge-alerts 已离线');
    // Still down: no second alert.
    clock.advance(1000);
    await report(false);
    await t.app.rampart.alertsJob.drain({ scan: false });
    const rows = await alertsOf();
    expect(rows.filter((r) => r.kind === 'nodeDown' && r.channel === 'email')).toHaveLength(1);
    expect(rows.filter((r) => r.kind === 'nodeDown').every((r) => r.status === 'sent')).toBe(true);
  });

  it('node up again: one alert; nothing reaches the other operator or the customers', async () => {
    clock.advance(1000);
    await report(true);
    await t.app.rampart.alertsJob.drain({ scan: false });
    expect(tg.messages.filter((m) => m.chatId === OPERATOR_CHAT).at(-1)?.text).toContain('节点 edge-alerts 已恢复');
    expect(mailText(await smtp.next('noc@example.test'))).toContain('发现节点 edge-alerts（127.0.0.1）已恢复响应');
    expect(smtp.mails.some((m) => m.to.includes('rival-noc@example.test'))).toBe(false);
    expect(smtp.mails.some((m) => m.to.includes('me@customer.test'))).toBe(false);
    expect(tg.messages.some((m) => m.chatId === RIVAL_CHAT || m.chatId === CUSTOMER_CHAT)).toBe(false);
  });

  it('emit: deduplicated by key, customers of another operator refused, failures retried and recorded', async () => {
    const operatorId = await rootId(t.app, 'client');
    const customerId = await rootId(t.app, 'user');
    const spike = {
      operatorId,
      customerId,
      kind: 'attackSpike' as const,
      subject: 'site:1',
      dedupKey: 'spike:test:1',
      params: { site: 'shop', blocked: 50, minutes: 5, threshold: 3 },
    };
    tg.failNext(1);
    expect(await t.app.rampart.alerts.emit(spike)).toBe(true);
    expect(await t.app.rampart.alerts.emit(spike)).toBe(false);
    // A customer of the rival operator is never a recipient of this operator's alert.
    expect(await t.app.rampart.alerts.emit({ ...spike, customerId: rivalCustomer, dedupKey: 'spike:test:2' })).toBe(
      false,
    );
    await t.app.rampart.alertsJob.drain({ scan: false });
    // The customer's mail in its language (zh_TW); the first Telegram attempt failed and waits.
    expect(mailText(await smtp.next('me@customer.test'))).toContain('攔截了網站 shop 的 50 個請求');
    let rows = (await alertsOf()).filter((r) => r.kind === 'attackSpike');
    const first = rows.find((r) => r.channel === 'telegram' && r.status === 'pending');
    expect(first).toMatchObject({ attempts: 1, lastError: 'Bad Gateway' });
    clock.advance(31_000);
    await t.app.rampart.alertsJob.drain({ scan: false });
    rows = (await alertsOf()).filter((r) => r.kind === 'attackSpike');
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(rows.length);
    expect(tg.messages.some((m) => m.text.includes('網站 shop 遭受攻擊'))).toBe(true);
  });

  it('a delivery refused every time is failed after its last attempt, its error kept', async () => {
    const operatorId = await rootId(t.app, 'client');
    const customerId = await rootId(t.app, 'user');
    await as(user, saveCustomerNotify, {
      body: { kinds: ['trafficOverPlan'], emails: [], telegramChatId: '4242', language: 'en_US' },
    });
    expect(
      await t.app.rampart.alerts.emit({
        operatorId,
        customerId,
        kind: 'trafficOverPlan',
        subject: 'site:1',
        dedupKey: 'traffic:1:2026-11',
        params: { site: 'shop', used: '12 GB', plan: '10 GB' },
      }),
    ).toBe(true);
    const row = async () =>
      (await alertsOf()).find((r) => r.kind === 'trafficOverPlan' && r.channel === 'telegram' && r.target === '4242');
    for (let i = 0; i < 6; i++) {
      await t.app.rampart.alertsJob.drain({ scan: false });
      clock.advance(3_600_000);
    }
    expect(await row()).toMatchObject({ status: 'failed', attempts: 6, lastError: 'Bad Request: chat not found' });
    await t.app.rampart.alertsJob.drain({ scan: false });
    expect((await row())?.attempts).toBe(6);
  });
});

/** The mail's body as text (nodemailer sends non-ASCII text as quoted-printable or base64). */
function mailText(mail: ReceivedMail): string {
  const [head = '', ...rest] = mail.raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  }
  return body;
}
