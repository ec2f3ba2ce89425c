import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { edgeUpstreamSchema } from '../edge/data-plane.js';
import { ALL_ROUTES } from '../routes/index.js';
import { isOriginAddress, isOriginHostName, originAddresses } from './origin.js';
import { registeredFields } from './outgoing-target.js';

const GOOD_NAMES = ['origin.example.com', 'my-app.herokuapp.com', 'a.b.c.d.example.net', 'xn--mnchen-3ya.de', 'b1.io'];
const BAD_NAMES = [
  'localhost', // one label: resolved through the node's search list, never an origin of the Internet
  'origin_1.example.com', // underscore
  'origin.example.com:8080', // port
  'origin.example.com/path', // path
  'origin.example.com.', // final dot
  '-origin.example.com',
  'origin-.example.com',
  'origin..example.com',
  '1.2.3.999', // an all-digit last label reads as an IPv4 address
  'origin.example.c0m',
  'http://origin.example.com',
  'origin example.com',
  'оrigin.example.com', // Cyrillic о
  `${'a'.repeat(64)}.example.com`, // a label over 63
  `${'a.'.repeat(126)}com`, // 255 characters
  '',
];

describe('origin host names', () => {
  it.each(GOOD_NAMES)('%s is a host name an origin may have', (name) => {
    expect(isOriginHostName(name)).toBe(true);
    expect(isOriginAddress(name)).toBe(true);
  });
  it.each(BAD_NAMES)('%j is not', (name) => {
    expect(isOriginHostName(name)).toBe(false);
    expect(isOriginAddress(name)).toBe(false);
  });
  it('IP literals are origin addresses but not host names', () => {
    for (const ip of ['203.0.114.7', '2606:4700::1111']) {
      expect(isOriginAddress(ip)).toBe(true);
      expect(isOriginHostName(ip)).toBe(false);
    }
  });
});

/** Every origin-address field of every route's request body, found by walking the contract. */
function originFields() {
  const out: { route: string; path: string; takes: 'ipOrName' | 'ip'; field: z.ZodType }[] = [];
  for (const route of ALL_ROUTES) {
    const body = (route.request as { body?: z.ZodType }).body;
    if (!body) continue;
    for (const [path, meta] of registeredFields(body, originAddresses)) {
      out.push({ route: route.id, path, takes: meta.takes, field: fieldAt(body, path) });
    }
  }
  return out;
}

/** The schema at a path of registeredFields (objects, arrays as `*`, wrappers unwrapped). */
function fieldAt(schema: z.ZodType, path: string): z.ZodType {
  let s = schema;
  for (const part of path.split('.')) {
    for (;;) {
      const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
      if (def.type === 'object' && part !== '*') {
        s = (def.shape as Record<string, z.ZodType>)[part] as z.ZodType;
        break;
      }
      if (def.type === 'array' && part === '*') {
        s = def.element as z.ZodType;
        break;
      }
      s = (def.innerType ?? def.in) as z.ZodType;
    }
  }
  return s;
}

describe('every origin address the contract takes', () => {
  const fields = originFields();

  it('finds the domain and layer-4 origin fields', () => {
    // A new origin field is found by the walk and tried below; this list says which are known.
    expect(fields.map((f) => `${f.route} ${f.path} ${f.takes}`).sort()).toEqual(
      [
        'user.domains.create domains.*.upstreams.*.ip ipOrName',
        'user.domain.update upstreams.*.ip ipOrName',
        'user.domain.upstreams.add upstreams.*.ip ipOrName',
        'user.domain.upstream.update ip ipOrName',
        'user.domains.simpleCreate upstreams.*.ip ipOrName',
        'user.domains.modifyUpstreamIPs oldIP ipOrName',
        'user.domains.modifyUpstreamIPs newIP ipOrName',
        'user.domains.upstreams upstreams.*.ip ipOrName',
        // Layer-4 ports are rendered into nginx.conf: IP literals only.
        'user.site.ports.add ports.*.upstreams.*.ip ip',
        'user.site.ports.batchCreate upstreams.*.ip ip',
        'user.site.port.upstreams.add upstreams.*.ip ip',
        'user.site.port.upstream.update ip ip',
      ].sort(),
    );
  });

  it.each(fields.map((f) => [`${f.route} ${f.path}`, f] as const))('%s', (_, f) => {
    for (const ip of ['203.0.114.7', '2606:4700::1111']) expect(f.field.safeParse(ip).success).toBe(true);
    const name = f.field.safeParse('My-App.Example.COM');
    expect(name.success).toBe(f.takes === 'ipOrName');
    if (name.success) expect(name.data).toBe('my-app.example.com');
    for (const bad of BAD_NAMES) expect(f.field.safeParse(bad).success, bad).toBe(false);
  });

  it('a node takes a host name in an upstream, and no other form', () => {
    const upstream = { port: 443, weight: 1, backup: false };
    expect(edgeUpstreamSchema.safeParse({ ...upstream, ip: 'origin.example.com' }).success).toBe(true);
    for (const bad of BAD_NAMES)
      expect(edgeUpstreamSchema.safeParse({ ...upstream, ip: bad }).success, bad).toBe(false);
  });
});
