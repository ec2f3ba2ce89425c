import {
  type AnyRoute,
  getFrequencySetting,
  saveCustomerNotify,
  saveEmailSetting,
  saveFrequencySetting,
  saveOperatorNotify,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTenants, analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipAggregated, shipBatch } from './helpers/events.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Attack spikes: blocked requests of a site (from the analytics store the nodes ship to) over its
// operator's threshold within its window raise one alert per site per window, to the operator's
// recipients and to the site's customer if it chose the kind; other sites, customers and operators
// hear nothing.
const NOW = Date.UTC(2026, 10, 10, 10, 30, 0);
const clock = manualClock(NOW);
let t: TestApp;
let smtp: TestSmtp;
let ten: AnalyticsTenants;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const blocked = (domainId: number, time: number) =>
  edgeEvent({ time, domainId, status: 403, fwKind: 'waf', fwRule: 1, fwAction: 'deny' });
let serial = 0;
async function ship(node: JoinedNode, events: ReturnType<typeof edgeEvent>[]) {
  serial += 1;
  const res = await shipBatch(t.app, node, { batchId: `spike-${serial}`, dropped: 0, events }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}
async function shipAggregates(node: JoinedNode, events: ReturnType<typeof edgeEvent>[]) {
  serial += 1;
  const res = await shipAggregated(t.app, node, `spikeagg-${serial}`, events, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ clock: clock.now, config: { alertsTickMs: 0 } });
  ten = await analyticsTenants(t, { shop: 'shop.spike.test', neighbour: 'door.spike.test', rival: 'far.spike.test' });
  const smtpSetting = {
    host: '127.0.0.1',
    port: smtp.port,
    tlsMode: 'none' as const,
    user: '',
    from: 'a@rampart.test',
  };
  for (const [who, noc, threshold] of [
    [ten.client, 'noc@op.test', 3],
    [ten.rival, 'noc@rival.test', 1],
  ] as const) {
    expect((await as(who, saveEmailSetting, { body: smtpSetting })).statusCode).toBe(200);
    const res = await as(who, saveOperatorNotify, {
      body: {
        kinds: ['attackSpike'],
        emails: [noc],
        telegram: false,
        language: 'en_US',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rates = await as(who, saveFrequencySetting, { body: { spikeThreshold: threshold, spikeWindowMinutes: 5 } });
    expect(rates.statusCode, rates.body).toBe(200);
  }
  for (const [who, address] of [
    [ten.user, 'shop@customer.test'],
    [ten.neighbour, 'door@customer.test'],
    [ten.rivalCustomer, 'far@customer.test'],
  ] as const) {
    const body = { kinds: ['attackSpike' as const], emails: [address], telegramChatId: '', language: 'en_US' as const };
    expect((await as(who, saveCustomerNotify, { body })).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('attack spikes', () => {
  it('alert the operator and the site’s customer once per window; sites under the threshold stay quiet', async () => {
    await ship(ten.a, [
      ...[1, 2, 3, 4].map((s) => blocked(ten.domainId, NOW - 60_000 + s * 1000)),
      // Under the threshold within the window, over it only with events older than the window.
      ...[1, 2].map((s) => blocked(ten.neighbourDomainId, NOW - 30_000 + s * 1000)),
      ...[1, 2, 3].map((s) => blocked(ten.neighbourDomainId, NOW - 20 * 60_000 + s * 1000)),
      edgeEvent({ time: NOW - 10_000, domainId: ten.neighbourDomainId }),
    ]);
    await ship(ten.rivalNode, [blocked(ten.rivalDomainId, NOW - 5000)]);
    await t.app.rampart.alertsJob.drain({ scan: true });

    const noc = await smtp.next('noc@op.test');
    expect(noc.raw).toContain('Attack on site shop');
    expect(noc.raw).toContain('blocked 4 requests');
    expect((await smtp.next('shop@customer.test')).raw).toContain('Attack on site shop');
    expect(mailsTo('door@customer.test')).toHaveLength(0);
    // The rival operator hears of its own site only, and its customer of its own.
    const rival = await smtp.next('noc@rival.test');
    expect(rival.raw).toContain('elsewhere');
    expect(mailsTo('noc@rival.test').some((m) => m.raw.includes('shop'))).toBe(false);
    expect((await smtp.next('far@customer.test')).raw).toContain('elsewhere');
    expect(mailsTo('noc@op.test').some((m) => m.raw.includes('elsewhere'))).toBe(false);

    // The same window again: no second alert.
    clock.advance(30_000);
    await ship(ten.a, [blocked(ten.domainId, clock.now() - 1000)]);
    await t.app.rampart.alertsJob.drain({ scan: true });
    expect(mailsTo('noc@op.test')).toHaveLength(1);
    expect(mailsTo('shop@customer.test')).toHaveLength(1);
  });

  it('fire at the operator’s trigger rate (client/setting/frequency) and not below it', async () => {
    clock.advance(10 * 60_000);
    const rates = await as(ten.client, saveFrequencySetting, { body: { spikeThreshold: 6, spikeWindowMinutes: 2 } });
    expect(rates.statusCode, rates.body).toBe(200);
    expect((await as(ten.client, getFrequencySetting)).json().data).toEqual({
      spikeThreshold: 6,
      spikeWindowMinutes: 2,
    });
    const before = mailsTo('noc@op.test').length;
    await ship(
      ten.a,
      [1, 2, 3, 4, 5].map((s) => blocked(ten.domainId, clock.now() - 30_000 + s * 1000)),
    );
    await t.app.rampart.alertsJob.drain({ scan: true });
    // Five blocks: under this operator's six (over the rival's one, which is not this site's operator's).
    expect(mailsTo('noc@op.test')).toHaveLength(before);
    await ship(ten.a, [blocked(ten.domainId, clock.now() - 1000)]);
    await t.app.rampart.alertsJob.drain({ scan: true });
    const mail = await smtp.next('noc@op.test');
    expect(mail.raw).toContain('blocked 6 requests');
    expect(mail.raw).toContain('last 2 minutes');
    expect(mail.raw).toContain('threshold 6');
  });

  it('count the blocks a node shipped as minute aggregates (no raw event for them)', async () => {
    clock.advance(10 * 60_000);
    await shipAggregates(
      ten.a,
      [1, 2, 3, 4, 5, 6, 7].map((s) => blocked(ten.domainId, clock.now() - 70_000 + s * 1000)),
    );
    await t.app.rampart.alertsJob.drain({ scan: true });
    expect((await smtp.next('noc@op.test')).raw).toContain('blocked 7 requests');
  });
});
