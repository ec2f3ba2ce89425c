import type { AnyRoute } from '@rampart/contract';
import {
  addBlacklistRules,
  addUserAgentRules,
  CHALLENGE_PASS_SECONDS,
  challengeKeyIds,
  dataPlaneSchema,
  deleteBlacklistRules,
  deleteUserAgentRules,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeChallengeKeys } from '../src/modules/firewall/challenge.edge.js';
import { sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Rules that challenge (blockType 1 five-second shield, 2 code, 3 click, 4 redirect, 5 slider): what they take and
// what the nodes get — the action, and the keys that sign and check the passes (edge/challenge.ts).

let t: TestApp;
let f: SiteFixture;
let siteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const methods = { get: true, post: true };

async function plane() {
  const { dataPlane } = await f.snapshot();
  expect(dataPlaneSchema.safeParse(dataPlane).success).toBe(true);
  return dataPlane;
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ siteId } = f);
  await f.addDomains(['www.shop.example']);
});
afterAll(async () => t.close());

describe('challenge rules', () => {
  it('reach the nodes as challenges, with the keys of the previous, current and next period', async () => {
    expect((await plane()).challenge.keys).toEqual([]);
    const listed = await as(addBlacklistRules, {
      params: { siteId },
      body: {
        data: [
          { ips: ['10.0.0.1'], url: '.*', methods, blockType: 1 },
          { ips: ['10.0.0.2'], url: '.*', methods, blockType: 3 },
          { ips: ['10.0.0.3'], url: '.*', methods, blockType: 4 },
          { ips: ['10.0.0.4'], url: '.*', methods, blockType: 2 },
          { ips: ['10.0.0.5'], url: '.*', methods, blockType: 5 },
        ],
      },
    });
    expect(listed.statusCode).toBe(200);
    const agents = await as(addUserAgentRules, {
      params: { siteId },
      body: { data: [{ urlRegex: '.*', userAgentRegex: 'curl', blockType: 1 }] },
    });
    expect(agents.statusCode).toBe(200);

    const p = await plane();
    expect(p.firewalls[0]?.blacklist.map((r) => r.action)).toEqual(['shield', 'click', 'redirect', 'code', 'slider']);
    expect(p.firewalls[0]?.userAgents.map((r) => r.action)).toEqual(['shield']);
    expect(p.challenge.passSeconds).toBe(CHALLENGE_PASS_SECONDS);
    expect(p.challenge.keys.map((k) => k.id)).toEqual(challengeKeyIds(new Date()));
    expect(new Set(p.challenge.keys.map((k) => k.secret)).size).toBe(3);
    // The same keys on every build: nothing is stored, every control-plane process derives them.
    expect((await plane()).challenge).toEqual(p.challenge);

    // Without a challenge rule the node gets no keys.
    await as(deleteBlacklistRules, {
      params: { siteId },
      body: { ids: listed.json().data.map((r: { id: number }) => r.id) },
    });
    await as(deleteUserAgentRules, {
      params: { siteId },
      body: { ids: agents.json().data.map((r: { id: number }) => r.id) },
    });
    expect((await plane()).challenge.keys).toEqual([]);
  });
});

describe('challenge keys', () => {
  const secret = 'an installation secret of enough length for the test';
  const at = new Date('2026-11-23T10:00:00Z');

  it('differ per operator and per period, and the next period holds what the current one will', () => {
    const mine = edgeChallengeKeys(secret, 1, at);
    const theirs = edgeChallengeKeys(secret, 2, at);
    expect(mine.keys.map((k) => k.id)).toEqual(theirs.keys.map((k) => k.id));
    for (const [i, key] of mine.keys.entries()) expect(key.secret).not.toBe(theirs.keys[i]?.secret);
    const later = edgeChallengeKeys(secret, 1, new Date(at.getTime() + 6 * 3600 * 1000));
    expect(later.keys[0]).toEqual(mine.keys[1]);
    expect(later.keys[1]).toEqual(mine.keys[2]);
    expect(later.keys[2]?.secret).not.toBe(mine.keys[2]?.secret);
    expect(edgeChallengeKeys('another installation secret, just as long', 1, at).keys[1]?.secret).not.toBe(
      mine.keys[1]?.secret,
    );
  });
});
