import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataOf, defineRoute, type ErrorCode, publicAccess } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/platform/errors/app-error.js';
import type { Binder } from '../src/platform/http/bind-route.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The catalogue codes a route declares: the test app answers 101002 for any other (so a test that
 * reaches an undeclared code fails), and RAMPART_RECORD_ROUTE_CODES records what each route answers.
 */

// Declares 201002; throws the code named in the query (and, for 101009, the item code).
const thrower = defineRoute({
  id: 'test.codes.thrower',
  method: 'GET',
  path: '/test/codes',
  access: publicAccess,
  codes: [101009, 201002],
  summary: 'throws the code it is asked for',
  tags: ['test'],
  request: { query: z.object({ code: z.coerce.number().int(), item: z.coerce.number().int().optional() }) },
  response: dataOf(z.literal(true)),
});

function bindThrower(binder: Binder) {
  binder.bind(thrower, async ({ query }) => {
    const item = query.item as ErrorCode | undefined;
    throw new AppError(query.code as ErrorCode, item ? { errors: [{ code: item, targets: ['x'] }] } : {});
  });
}

async function codeOf(t: TestApp, code: number, item?: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/test/codes?code=${code}${item ? `&item=${item}` : ''}`,
  });
  return res.json().code as number;
}

describe('strict route codes (the test app)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraRoutes: bindThrower, strictRouteCodes: true });
  });
  afterAll(async () => t.close());

  it('answers a declared code, and the codes every route may answer, as they are', async () => {
    expect(await codeOf(t, 201002)).toBe(201002);
    expect(await codeOf(t, 101003)).toBe(101003);
    expect(await codeOf(t, 101009, 201002)).toBe(101009);
    // Anything but a catalogue code is the error handler's business, as before.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/test/codes?code=x' })).json().code).toBe(101003);
  });

  it('answers 101002 for an undeclared code, and logs the route and the code', async () => {
    expect(await codeOf(t, 202001)).toBe(101002);
    expect(t.logs.find((l) => l.route === 'test.codes.thrower')).toMatchObject({ undeclared: [202001] });
  });

  it("checks the items of a batch error too, and a signed-in route's codes are not a public one's", async () => {
    expect(await codeOf(t, 101009, 203001)).toBe(101002);
    expect(await codeOf(t, 101018)).toBe(101002);
  });
});

describe('recorded route codes (RAMPART_RECORD_ROUTE_CODES)', () => {
  let t: TestApp;
  const dir = mkdtempSync(path.join(tmpdir(), 'route-codes-'));
  const file = path.join(dir, 'codes.txt');
  beforeAll(async () => {
    const before = process.env.RAMPART_RECORD_ROUTE_CODES;
    process.env.RAMPART_RECORD_ROUTE_CODES = file;
    try {
      t = await createTestApp({ extraRoutes: bindThrower, strictRouteCodes: false });
    } finally {
      if (before === undefined) delete process.env.RAMPART_RECORD_ROUTE_CODES;
      else process.env.RAMPART_RECORD_ROUTE_CODES = before;
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends `<routeId> <code>` for every code a route answers, declared or not', async () => {
    expect(await codeOf(t, 201002)).toBe(201002);
    expect(await codeOf(t, 202001)).toBe(202001);
    expect(await codeOf(t, 101009, 203001)).toBe(101009);
    await t.app.inject({ method: 'POST', url: '/api/v1/client/zone', payload: {} });
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toEqual([
      'test.codes.thrower 201002',
      'test.codes.thrower 202001',
      'test.codes.thrower 101009',
      'test.codes.thrower 203001',
      'client.zone.create 101013',
    ]);
  });
});
