import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, isErrorCode } from './errors.js';
import { buildOpenApiDocument } from './openapi.js';
import { permissionOf, tierPermissions } from './permissions.js';
import { routeUrl } from './route.js';
import { IMPLIED_CODES, routeCodes } from './route-codes.js';
import { ALL_ROUTES } from './routes/index.js';

describe('route declarations', () => {
  it('every signed-in route names its permission key, one its tiers hold; public and node routes none', () => {
    const wrong: string[] = [];
    for (const route of ALL_ROUTES) {
      if (route.access.kind !== 'tiers') {
        if ('permission' in route.access || permissionOf(route) !== null) wrong.push(`${route.id}: has a key`);
        continue;
      }
      const key = route.access.permission;
      if (typeof key !== 'string' || key === '') wrong.push(`${route.id}: no key`);
      for (const tier of route.access.tiers) {
        if (!tierPermissions(tier).includes(key)) wrong.push(`${route.id}: ${key} is not a key of ${tier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('declares catalogue codes, sorted and once each, none that its access kind already implies', () => {
    const wrong: string[] = [];
    for (const route of ALL_ROUTES) {
      const codes = [...route.codes];
      for (const code of codes) {
        if (!isErrorCode(code)) wrong.push(`${route.id}: ${code} is not in the catalogue`);
        else if (code === 101001) wrong.push(`${route.id}: 101001 is a success`);
        if (IMPLIED_CODES[route.access.kind].includes(code)) wrong.push(`${route.id}: ${code} is implied`);
      }
      const sorted = [...new Set(codes)].sort((a, b) => a - b);
      if (sorted.join() !== codes.join()) wrong.push(`${route.id}: ${codes.join(',')} not sorted or repeated`);
    }
    expect(wrong).toEqual([]);
  });

  it('a route may answer the codes of its access kind and its own', () => {
    for (const codes of Object.values(IMPLIED_CODES)) for (const code of codes) expect(isErrorCode(code)).toBe(true);
    const signedIn = ALL_ROUTES.find((r) => r.access.kind === 'tiers' && r.codes.length > 0);
    expect(signedIn).toBeDefined();
    if (!signedIn) return;
    expect([...routeCodes(signedIn)].sort()).toEqual([...new Set([...IMPLIED_CODES.tiers, ...signedIn.codes])].sort());
    expect(routeCodes({ access: { kind: 'node' }, codes: [] })).toEqual(new Set([101002, 101003, 101004, 101013]));
  });

  it('the OpenAPI document lists every code a route may answer under its status, with its message', () => {
    const doc = buildOpenApiDocument(ALL_ROUTES, { title: 't', version: '1' }) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { description?: string; 'x-codes'?: number[] }> }>
      >;
    };
    for (const route of ALL_ROUTES) {
      const responses = doc.paths[routeUrl(route)]?.[route.method.toLowerCase()]?.responses ?? {};
      const listed: number[] = [];
      for (const [status, response] of Object.entries(responses)) {
        for (const code of response['x-codes'] ?? []) {
          if (!isErrorCode(code)) throw new Error(`${route.id}: ${code}`);
          listed.push(code);
          expect(status, `${route.id} ${code}`).toBe(String(ERROR_CATALOGUE[code].status));
          expect(response.description).toContain(`\`${code}\` ${ERROR_CATALOGUE[code].message.en_US}`);
        }
      }
      expect(listed.sort(), route.id).toEqual([...routeCodes(route)].sort());
    }
  });
});
