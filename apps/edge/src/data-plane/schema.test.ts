import { describe, expect, it } from 'vitest';
import { disabledDomain, document, upstream, domain as validDomain } from '../../test/helpers/documents.js';
import { DATA_PLANE_LIMITS, type DataPlane, DataPlaneError, type Domain, parseDataPlane } from './schema.js';

const CERT_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUYmFzZTY0\nZm9vYmFy\n-----END CERTIFICATE-----\n';
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n-----END PRIVATE KEY-----\n';

/** A valid domain (id 1, www.example.com, one upstream); the overrides may be invalid on purpose. */
function domain(overrides: Record<string, unknown> = {}, origin: Record<string, unknown> = {}): Domain {
  const extra = { ...overrides, origin } as Parameters<typeof validDomain>[3];
  return validDomain(1, 'www.example.com', [upstream(80, { ip: '192.0.2.10' })], extra);
}

/** A valid document (version v1, one domain); the overrides may be invalid on purpose. */
function doc(overrides: Record<string, unknown> = {}): DataPlane {
  return { ...document('v1', [domain()]), ...overrides } as DataPlane;
}

/** The DataPlaneError parseDataPlane throws for `value` (fails the test when it accepts it). */
function refusal(value: unknown): DataPlaneError {
  try {
    parseDataPlane(typeof value === 'string' ? value : JSON.stringify(value));
  } catch (err) {
    if (err instanceof DataPlaneError) return err;
    throw err;
  }
  throw new Error('the document was accepted');
}

function upstreamWith(fields: Record<string, unknown>) {
  return doc({
    domains: [domain({}, { upstreams: [{ ip: '192.0.2.10', port: 80, weight: 1, backup: false, ...fields }] })],
  });
}

describe('parseDataPlane accepts', () => {
  it('a top-level field or a zone limit it does not know (a newer control plane), dropped', () => {
    const limits = { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 21 };
    const taken = parseDataPlane(JSON.stringify({ ...doc({ limits: { ...limits, ban: 1 } }), extra: 1 }));
    expect(taken).toEqual(doc({ limits }));
  });

  it('a complete document and returns it typed', () => {
    const input = doc({
      domains: [
        domain({ certificateId: 7, forceSSL: true, forceSSLCode: 308 }),
        domain(
          { id: 2, name: '*.apps.example.com' },
          {
            scheme: 'https',
            host: 'origin.example.net',
            balance: 'ip_hash',
            upstreams: [
              { ip: '2001:db8::1', port: 443, weight: 100, backup: false },
              { ip: '198.51.100.7', port: 8443, weight: 1, backup: true },
            ],
          },
        ),
        domain({ id: 3, name: 'xn--mnchen-3ya.xn--p1ai' }),
        domain({ id: 4, name: '_acme.my-site.example.org' }),
      ],
      certificates: [{ id: 7, certPem: CERT_PEM + CERT_PEM, keyPem: KEY_PEM }],
    });
    expect(parseDataPlane(JSON.stringify(input))).toEqual(input);
    expect(parseDataPlane(new TextEncoder().encode(JSON.stringify(input)))).toEqual(input);
  });

  it('a disabled domain without its origin, and one that still carries it (a control plane from before)', () => {
    const bare = disabledDomain(2, 'parked.example.com', { certificateId: 7, settingsId: null });
    const input = doc({
      domains: [bare, domain({ enabled: false })],
      certificates: [{ id: 7, certPem: CERT_PEM, keyPem: KEY_PEM }],
    });
    const parsed = parseDataPlane(JSON.stringify(input));
    expect(parsed.domains[0]).toEqual(bare);
    expect(parsed.domains[1]?.origin?.upstreams).toHaveLength(1);
  });

  it('the port map, off when a document does not carry it', () => {
    const on = doc({ domains: [domain({}, { portMap: true })] });
    expect(parseDataPlane(JSON.stringify(on)).domains[0]?.origin?.portMap).toBe(true);
    const without = domain();
    delete (without.origin as Partial<NonNullable<Domain['origin']>>).portMap;
    expect(parseDataPlane(JSON.stringify(doc({ domains: [without] }))).domains[0]?.origin?.portMap).toBe(false);
  });

  it('zone limits up to 100,000, off when a document does not carry them', () => {
    const on = doc({ limits: { invalidDomainPerMinute: 100_000, tlsHandshakesPerMinute: 3 } });
    expect(parseDataPlane(JSON.stringify(on)).limits).toEqual({
      invalidDomainPerMinute: 100_000,
      tlsHandshakesPerMinute: 3,
      challengeWorkBits: 21,
    });
    const { limits: _omitted, ...older } = doc();
    expect(parseDataPlane(JSON.stringify(older)).limits).toEqual({
      invalidDomainPerMinute: 0,
      tlsHandshakesPerMinute: 0,
      challengeWorkBits: 21,
    });
  });

  it('exactly the limits: 64 upstreams', () => {
    const upstreams = Array.from({ length: 64 }, (_, i) => ({
      ip: '192.0.2.1',
      port: 1000 + i,
      weight: 1,
      backup: false,
    }));
    expect(
      parseDataPlane(JSON.stringify(doc({ domains: [domain({}, { upstreams })] }))).domains[0]?.origin?.upstreams,
    ).toHaveLength(64);
  });
});

describe('parseDataPlane refuses', () => {
  it('a document over 256 MiB before parsing it', () => {
    // allocUnsafe leaves the pages untouched: no 256 MiB of real memory is used.
    const huge = Buffer.allocUnsafe(DATA_PLANE_LIMITS.documentBytes + 1);
    expect(() => parseDataPlane(huge)).toThrow(expect.objectContaining({ code: 'too_large' }));
  });

  it('text that is not JSON', () => {
    expect(refusal('{"version":')).toMatchObject({ code: 'invalid_json', field: '(document)' });
  });

  it.each([
    ['not an object', [1, 2], '(document)'],
    ['an empty version', doc({ version: '' }), 'version'],
    ['a version with a space', doc({ version: 'v 1' }), 'version'],
    ['a version over 128 characters', doc({ version: 'v'.repeat(129) }), 'version'],
    ['domains that are not a list', doc({ domains: {} }), 'domains'],
  ])('%s', (_label, value, field) => {
    expect(refusal(value)).toMatchObject({ code: 'invalid_document', field });
  });

  it('more than 50,000 domains', { timeout: 60_000 }, () => {
    const domains = Array.from({ length: DATA_PLANE_LIMITS.domains + 1 }, (_, i) =>
      domain({ id: i + 1, name: `d${i}.example.com` }),
    );
    expect(refusal(doc({ domains })).field).toBe('domains');
  });

  it('more than 10,000 certificates', () => {
    const certificates = Array.from({ length: DATA_PLANE_LIMITS.certificates + 1 }, (_, i) => ({
      id: i + 1,
      certPem: CERT_PEM,
      keyPem: KEY_PEM,
    }));
    expect(refusal(doc({ certificates })).field).toBe('certificates');
  });

  it.each([
    'WWW.example.com',
    'www.example.com.',
    'example',
    'localhost',
    '-www.example.com',
    'www-.example.com',
    'www..example.com',
    'a.*.example.com',
    '*.*.example.com',
    '*example.com',
    'example.123',
    'example.c',
    '192.0.2.1',
    'www.exa mple.com',
    'www.example.com;',
    'www.example.com\nreturn 200',
    'www.example.com}',
    '$host.example.com',
    "'quoted'.example.com",
    'münchen.de',
    `${'a'.repeat(64)}.example.com`,
    `${'a.'.repeat(126)}com`,
  ])('the domain name %j', (name) => {
    expect(refusal(doc({ domains: [domain({ name })] })).field).toBe('domains[0].name');
  });

  it.each([
    ['id 0', { id: 0 }, 'domains[0].id'],
    ['a fractional id', { id: 1.5 }, 'domains[0].id'],
    ['enabled as a string', { enabled: 'yes' }, 'domains[0].enabled'],
    ['forceSSL missing', { forceSSL: undefined }, 'domains[0].forceSSL'],
    ['forceSSLCode 303', { forceSSLCode: 303 }, 'domains[0].forceSSLCode'],
    ['an unknown domain field', { root: '/etc' }, 'domains[0]'],
  ])('a domain with %s', (_label, overrides, field) => {
    expect(refusal(doc({ domains: [domain(overrides)] })).field).toBe(field);
  });

  it('an enabled domain without an origin', () => {
    const error = refusal(doc({ domains: [{ ...disabledDomain(1, 'www.example.com'), enabled: true }] }));
    expect(error.field).toBe('domains[0].origin');
    expect(error.reason).toBe('an enabled domain needs its origin');
  });

  it.each([
    ['scheme ftp', { scheme: 'ftp' }, 'domains[0].origin.scheme'],
    ['a wildcard origin host', { host: '*.example.com' }, 'domains[0].origin.host'],
    ['an origin host with a port', { host: 'origin.example.net:8080' }, 'domains[0].origin.host'],
    ['an origin host with a directive', { host: 'o.example.net;\nproxy_pass x' }, 'domains[0].origin.host'],
    ['balance least_conn', { balance: 'least_conn' }, 'domains[0].origin.balance'],
    ['a port map that is a string', { portMap: 'yes' }, 'domains[0].origin.portMap'],
    ['a port map that is null', { portMap: null }, 'domains[0].origin.portMap'],
    ['no upstreams', { upstreams: [] }, 'domains[0].origin.upstreams'],
    [
      'only backup upstreams',
      { upstreams: [{ ip: '192.0.2.1', port: 80, weight: 1, backup: true }] },
      'domains[0].origin.upstreams',
    ],
    [
      '65 upstreams',
      { upstreams: Array.from({ length: 65 }, () => ({ ip: '192.0.2.1', port: 80, weight: 1, backup: false })) },
      'domains[0].origin.upstreams',
    ],
  ])('an origin with %s', (_label, origin, field) => {
    expect(refusal(doc({ domains: [domain({}, origin)] })).field).toBe(field);
  });

  it.each([
    ['ip', { ip: '192.0.2' }],
    ['ip', { ip: '256.0.0.1' }],
    ['ip', { ip: '01.2.3.4' }],
    // A host name is an origin (the agent resolves it), but only in the strict form the API takes.
    ['ip', { ip: 'origin_1.example.net' }],
    ['ip', { ip: 'origin.example.net:8080' }],
    ['ip', { ip: 'Origin.Example.net' }],
    ['ip', { ip: 'localhost' }],
    ['ip', { ip: '[2001:db8::1]' }],
    ['ip', { ip: 'fe80::1%eth0' }],
    ['ip', { ip: '192.0.2.1;' }],
    ['ip', { ip: '2001:db8::1::2' }],
    ['port', { port: 0 }],
    ['port', { port: 65_536 }],
    ['port', { port: 80.5 }],
    ['port', { port: '80' }],
    ['weight', { weight: 0 }],
    ['weight', { weight: 101 }],
    ['backup', { backup: 'no' }],
  ])('an upstream with a bad %s: %j', (key, fields) => {
    expect(refusal(upstreamWith(fields)).field).toBe(`domains[0].origin.upstreams[0].${key}`);
  });

  it('duplicate domain names, naming the second', () => {
    const error = refusal(doc({ domains: [domain(), domain({ id: 2 })] }));
    expect(error).toMatchObject({ field: 'domains[1].name', reason: 'duplicate domain name' });
  });

  it('duplicate domain ids', () => {
    expect(refusal(doc({ domains: [domain(), domain({ name: 'b.example.com' })] })).field).toBe('domains[1].id');
  });

  it('a certificate id no certificate has', () => {
    expect(refusal(doc({ domains: [domain({ certificateId: 9 })] })).field).toBe('domains[0].certificateId');
  });

  it('duplicate certificate ids', () => {
    const cert = { id: 1, certPem: CERT_PEM, keyPem: KEY_PEM };
    expect(refusal(doc({ certificates: [cert, cert] })).field).toBe('certificates[1].id');
  });

  it.each([
    ['certPem', { certPem: 'MIIBszCCAVmgAwIBAgIUYmFzZTY0' }],
    ['certPem', { certPem: KEY_PEM }],
    ['certPem', { certPem: `${CERT_PEM}trailing text` }],
    ['certPem', { certPem: CERT_PEM.replace('END CERTIFICATE', 'END CERT') }],
    ['certPem', { certPem: CERT_PEM.replace('YmFzZTY0', 'YmFz;ZTY0') }],
    ['certPem', { certPem: `-----BEGIN CERTIFICATE-----\n${'A'.repeat(70_000)}\n-----END CERTIFICATE-----\n` }],
    ['keyPem', { keyPem: CERT_PEM }],
    ['keyPem', { keyPem: KEY_PEM.replace('END PRIVATE KEY', 'END RSA PRIVATE KEY') }],
    ['keyPem', { keyPem: KEY_PEM + KEY_PEM }],
    ['id', { id: -1 }],
  ])('a certificate with a bad %s', (key, fields) => {
    const certificates = [{ id: 1, certPem: CERT_PEM, keyPem: KEY_PEM, ...fields }];
    expect(refusal(doc({ certificates })).field).toBe(`certificates[0].${key}`);
  });

  const cacheRule = {
    scope: 'path',
    values: ['/a.png'],
    ttl: 3600,
    queryString: 'include',
    bypass: false,
    respectOrigin: true,
  };
  it.each([
    ['caches[0].rules[0].values', { values: ['/a"; return 200'] }],
    ['caches[0].rules[0].values', { values: ['no-slash'] }],
    ['caches[0].rules[0].ttl', { ttl: 61 }],
    ['caches[0].rules[0].scope', { scope: 'fileType' }],
    ['caches[0].rules[0].queryString', { queryString: 'sometimes' }],
  ])('a cache rule with a bad field (%s: %j)', (field, fields) => {
    const caches = [{ id: 3, generation: 1, rules: [{ ...cacheRule, ...fields }] }];
    expect(refusal(doc({ caches })).field).toBe(field);
  });

  it('a domain naming a cache policy the document lacks', () => {
    expect(refusal(doc({ domains: [domain({ cacheId: 9 })] })).field).toBe('domains[0].cacheId');
  });

  it('two cache policies with one id', () => {
    const policy = { id: 3, generation: 1, rules: [cacheRule] };
    expect(refusal(doc({ caches: [policy, policy] })).field).toBe('caches[1].id');
  });

  const headerModule = { id: 5, type: 'customHeader', request: [], response: [] };
  const noModules = { customHeader: null, urlRedirect: null, cors: null, proxyRewrite: null };
  it.each([
    ['modules[0].request[0].value', { request: [{ name: 'X-A', value: 'a\r\nSet-Cookie: x=1' }] }],
    ['modules[0].request[0].name', { request: [{ name: 'X A', value: 'a' }] }],
    ['modules[0].request[0].name', { request: [{ name: 'Host', value: 'evil.example' }] }],
    ['modules[0].request[0].name', { request: [{ name: 'X-Forwarded-For', value: '1.2.3.4' }] }],
    ['modules[0].response[0].name', { response: [{ name: 'Content-Length', value: '0' }] }],
    ['modules[0].response[0].name', { response: [{ name: 'Transfer-Encoding', value: 'chunked' }] }],
  ])('a custom-header module with a bad header (%s: %j)', (field, fields) => {
    expect(refusal(doc({ modules: [{ ...headerModule, ...fields }] })).field).toBe(field);
  });

  const redirect = { match: 'exact', source: '/old', target: '/new', code: 301, keepQuery: true };
  it.each([
    ['modules[0].rules[0].source', { match: 'regex', source: '^/(?<=a)b' }],
    ['modules[0].rules[0].source', { match: 'regex', source: '^/(a)\\1' }],
    ['modules[0].rules[0].source', { match: 'exact', source: 'old' }],
    ['modules[0].rules[0].target', { target: 'javascript:alert(1)' }],
    ['modules[0].rules[0].target', { target: '/a b' }],
    ['modules[0].rules[0].code', { code: 303 }],
  ])('a redirect rule with a bad field (%s: %j)', (field, fields) => {
    const modules = [{ id: 6, type: 'urlRedirect', rules: [{ ...redirect, ...fields }] }];
    expect(refusal(doc({ modules })).field).toBe(field);
  });

  it('a CORS module with a bad origin and a rewrite module with a bad host', () => {
    const cors = {
      id: 7,
      type: 'cors',
      origins: ['https://a.example.com\r\nX: y'],
      methods: ['GET'],
      allowHeaders: [],
      exposeHeaders: [],
      credentials: false,
      maxAge: 0,
    };
    expect(refusal(doc({ modules: [cors] })).field).toBe('modules[0].origins[0]');
    const rewrite = { id: 8, type: 'proxyRewrite', host: 'a b', setHeaders: [], removeHeaders: [], rules: [] };
    expect(refusal(doc({ modules: [rewrite] })).field).toBe('modules[0].host');
  });

  it('a domain naming a module the document lacks, or one of another type', () => {
    const missing = domain({ modules: { ...noModules, customHeader: 9 } });
    expect(refusal(doc({ domains: [missing] })).field).toBe('domains[0].modules.customHeader');
    const wrongType = domain({ modules: { ...noModules, cors: 5 } });
    expect(refusal(doc({ domains: [wrongType], modules: [headerModule] })).field).toBe('domains[0].modules.cors');
    const ok = domain({ modules: { ...noModules, customHeader: 5 } });
    expect(() => parseDataPlane(JSON.stringify(doc({ domains: [ok], modules: [headerModule] })))).not.toThrow();
  });

  const siteSettings = {
    id: 4,
    gzip: { types: ['text/html'], minLength: 1024 },
    rates: [{ pattern: '/downloads/*', kbps: 16 }],
    language: 'zh_CN',
    pages: [{ status: 404, body: '<h1>gone</h1>' }],
  };
  it('site settings with every part', () => {
    const input = doc({ domains: [domain({ settingsId: 4 })], settings: [siteSettings] });
    expect(() => parseDataPlane(JSON.stringify(input))).not.toThrow();
  });
  it.each([
    ['settings[0].gzip.types.0', { gzip: { types: ['application/octet-stream'], minLength: 0 } }],
    ['settings[0].gzip.types.0', { gzip: { types: ['text/html; x=1'], minLength: 0 } }],
    ['settings[0].gzip.types', { gzip: { types: [], minLength: 0 } }],
    ['settings[0].gzip.minLength', { gzip: { types: ['text/css'], minLength: -1 } }],
    ['settings[0].rates.0.pattern', { rates: [{ pattern: '/a/*/b/*', kbps: 1 }] }],
    ['settings[0].rates.0.pattern', { rates: [{ pattern: '/a"; limit_rate 0', kbps: 1 }] }],
    ['settings[0].rates.0.pattern', { rates: [{ pattern: 'downloads', kbps: 1 }] }],
    ['settings[0].rates.0.kbps', { rates: [{ pattern: '*', kbps: 0 }] }],
    ['settings[0].language', { language: 'fr_FR' }],
    ['settings[0].pages.0.status', { pages: [{ status: 200, body: 'ok' }] }],
    ['settings[0].pages.0.body', { pages: [{ status: 404, body: 'x'.repeat(64 * 1024 + 1) }] }],
  ])('site settings with a bad field (%s)', (field, fields) => {
    const settings = [{ ...siteSettings, ...fields }];
    expect(refusal(doc({ settings })).field.replace(/\[(\d+)\]/g, '.$1')).toBe(field.replace(/\[(\d+)\]/g, '.$1'));
  });

  it('a domain naming site settings the document lacks, and two settings with one id', () => {
    expect(refusal(doc({ domains: [domain({ settingsId: 9 })] })).field).toBe('domains[0].settingsId');
    expect(refusal(doc({ settings: [siteSettings, siteSettings] })).field).toBe('settings[1].id');
  });

  const firewallRule = {
    id: 11,
    url: 'https?:\\/\\/www.example.com(.*)',
    methods: ['GET', 'POST'],
    v4: [['7f000001', '7f0000ff']],
    v6: [['00000000000000000000000000000001', '00000000000000000000000000000001']],
  };
  const firewall = { id: 4, whitelist: [firewallRule], blacklist: [{ ...firewallRule, id: 12, action: 'drop' }] };
  it('a site firewall, and a document without firewalls (none)', () => {
    const input = doc({ domains: [domain({ firewallId: 4 })], firewalls: [firewall] });
    // A firewall from before user-agent rules, header rules and frequency limits reads as one without any.
    const none = { userAgents: [], headers: [], intervals: [], rates: [], antiCC: [] };
    expect(parseDataPlane(JSON.stringify(input)).firewalls).toEqual([{ ...firewall, ...none }]);
    const agents = { ...firewall, ...none, userAgents: [{ id: 13, url: '.*', userAgent: 'curl', action: 'deny' }] };
    const withAgents = doc({ domains: [domain({ firewallId: 4 })], firewalls: [agents] });
    expect(parseDataPlane(JSON.stringify(withAgents)).firewalls).toEqual([agents]);
    const { firewalls: _omitted, ...older } = doc();
    expect(parseDataPlane(JSON.stringify(older)).firewalls).toEqual([]);
    expect(parseDataPlane(JSON.stringify(older)).domains[0]?.firewallId).toBeNull();
  });
  it.each([
    ['firewalls.0.whitelist.0.url', { url: '(a' }],
    ['firewalls.0.whitelist.0.url', { url: 'a(?=b)' }],
    ['firewalls.0.whitelist.0.url', { url: '(a+)+' }],
    ['firewalls.0.whitelist.0.methods.0', { methods: ['TRACE'] }],
    ['firewalls.0.whitelist.0.methods', { methods: [] }],
    ['firewalls.0.whitelist.0.v4.0.0', { v4: [['7F000001', '7f000001']] }],
    ['firewalls.0.whitelist.0.v4.0', { v4: [['7f000002', '7f000001']] }],
    [
      'firewalls.0.whitelist.0.v4.1',
      {
        v4: [
          ['7f000005', '7f000006'],
          ['7f000001', '7f000002'],
        ],
      },
    ],
    [
      'firewalls.0.whitelist.0.v4.1',
      {
        v4: [
          ['7f000001', '7f000002'],
          ['7f000003', '7f000004'],
        ],
      },
    ],
    ['firewalls.0.whitelist.0.v6.0.0', { v6: [['7f000001', '7f000001']] }],
  ])('a firewall rule with a bad field (%s)', (field, fields) => {
    const firewalls = [{ ...firewall, whitelist: [{ ...firewallRule, ...fields }] }];
    expect(refusal(doc({ firewalls })).field.replace(/\[(\d+)\]/g, '.$1')).toBe(field);
  });
  it.each([
    ['a blacklist rule', { blacklist: [{ ...firewallRule, id: 12, action: 'code' }] }],
    ['a user-agent rule', { userAgents: [{ id: 13, url: '.*', userAgent: 'curl', action: 'slider' }] }],
    ['a geo rule', { geos: [{ id: 14, url: '.*', white: false, countries: ['CN'], cities: [], action: 'click' }] }],
  ])('%s that challenges without the challenge keys', (_label, rules) => {
    const firewalls = [{ ...firewall, blacklist: [], ...rules }];
    expect(refusal(doc({ firewalls }))).toMatchObject({ field: 'firewalls[0]' });
    const keys = [{ id: 1, secret: 'ab'.repeat(32) }];
    expect(
      parseDataPlane(JSON.stringify(doc({ firewalls, challenge: { keys, passSeconds: 1800 } }))).firewalls,
    ).toHaveLength(1);
  });

  it('a blacklist rule without its action, two firewalls with one id, and a domain naming a missing one', () => {
    const noAction = [{ ...firewall, blacklist: [firewallRule] }];
    expect(refusal(doc({ firewalls: noAction })).field).toBe('firewalls[0].blacklist[0].action');
    expect(refusal(doc({ firewalls: [firewall, firewall] })).field).toBe('firewalls[1].id');
    expect(refusal(doc({ domains: [domain({ firewallId: 9 })], firewalls: [firewall] })).field).toBe(
      'domains[0].firewallId',
    );
  });

  it.each([
    ['negative', { invalidDomainPerMinute: -1, tlsHandshakesPerMinute: 0 }, 'limits.invalidDomainPerMinute'],
    ['fractional', { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 1.5 }, 'limits.tlsHandshakesPerMinute'],
    ['over 100,000', { invalidDomainPerMinute: 100_001, tlsHandshakesPerMinute: 0 }, 'limits.invalidDomainPerMinute'],
    ['a string', { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: '3' }, 'limits.tlsHandshakesPerMinute'],
    ['missing a field', { invalidDomainPerMinute: 3 }, 'limits.tlsHandshakesPerMinute'],
    [
      'with challenge work over 24 bits',
      { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 25 },
      'limits.challengeWorkBits',
    ],
    ['null', null, 'limits'],
  ])('zone limits that are %s', (_label, limits, field) => {
    expect(refusal(doc({ limits }))).toMatchObject({ code: 'invalid_document', field });
  });

  it('with a typed error whose message names the field', () => {
    const error = refusal(upstreamWith({ port: 0 }));
    expect(error).toBeInstanceOf(DataPlaneError);
    expect(error.message).toMatch(/^domains\[0\]\.origin\.upstreams\[0\]\.port: /);
  });
});
