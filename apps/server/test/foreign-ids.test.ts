import {
  ALL_ROUTES,
  type AnyRoute,
  addAntiCCRules,
  addAntiHeaders,
  addAntiReferers,
  addBlacklistRules,
  addCacheRules,
  addGeoRules,
  addHeaderRules,
  addIntervalLimits,
  addL4BlacklistRules,
  addL4LimitConnRules,
  addL4PositionRules,
  addL4WhitelistRules,
  addRateRules,
  addSecondLimits,
  addSitePorts,
  addUserAgentRules,
  addWhitelistRules,
  assignCertificate,
  authCredentialRoutes,
  authGroupRoutes,
  bindModuleRoutes,
  corsRoutes,
  createCertificate,
  createGroup,
  createProduct,
  createSite,
  createZone,
  customHeaderRoutes,
  listCertificates,
  listUpstreams,
  luaAclRoutes,
  pathParamNames,
  productGroups,
  proxyRewriteRoutes,
  tokenAuthRoutes,
  urlRedirectRoutes,
  wafRoutes,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawRequest, sendAs, type Token } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { operatorCalls } from './helpers/operators.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Another tenant's ids get the answer an id that does not exist gets, on every write route that
 * takes ids: no "in use" check, no limit and no lookup runs on an id before its ownership is
 * proven, and no reply names another tenant's objects. The neighbour's objects are all in use
 * (its certificate and every module bound to its domain, rules in its modules and its cache and
 * rate lists), which is what "in use" checks look at.
 */

let t: TestApp;
let f: SiteFixture;
/** The neighbour's objects, by kind. */
const theirs: Record<string, number> = {};
const ACL_RULE = {
  name: 'r',
  action: 'deny' as const,
  conditions: [{ field: 'method' as const, operator: 'in' as const, values: ['GET'] }],
};
const TOKEN_AUTH = { scope: 'directory', value: '/live', key: 'abc123' } as const;
/** Names that must never appear in a reply to the customer. */
const secretNames = [
  'victim-secret.example',
  'victim-cert',
  'victim-headers',
  'victim-cors',
  'victim-moves',
  'victim-rw',
];
const MISSING = 999_999;
/** The customer's own layer-4 site and port (the layer-4 rules' calls name a port of the site). */
const mine = { l4Site: 0, l4Port: 0 };

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
  const { other, otherSiteId } = f;
  const on = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, other, route, ...args);
  const ok = async (res: Promise<{ statusCode: number; body: string; json(): { data: unknown } }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data as never;
  };
  theirs.domain = (await f.addDomains(['victim-secret.example'], 'other'))[0] as number;
  theirs.upstream =
    ((await ok(on(listUpstreams, { params: { siteId: otherSiteId, domainId: theirs.domain } }))) as { id: number }[])[0]
      ?.id ?? 0;
  const cert = await makeCertificate(['victim-secret.example']);
  theirs.certificate = (
    (await ok(
      on(createCertificate, {
        params: { siteId: otherSiteId },
        body: { name: 'victim-cert', certificate: cert.certPem, privateKey: cert.keyPem },
      }),
    )) as {
      id: number;
    }
  ).id;
  await ok(
    on(assignCertificate, {
      params: { siteId: otherSiteId },
      body: { certificateID: theirs.certificate, domainIDs: [theirs.domain] },
    }),
  );
  const moduleOf = async (route: AnyRoute, body: Record<string, unknown>) =>
    (
      (await ok(
        rawRequest(t.app, route, { params: { siteId: otherSiteId }, body: { modules: [body] } }, { token: other }),
      )) as {
        id: number;
      }[]
    )[0]?.id ?? 0;
  theirs.customHeader = await moduleOf(customHeaderRoutes.create, { name: 'victim-headers' });
  theirs.cors = await moduleOf(corsRoutes.create, { name: 'victim-cors', origins: ['https://app.example.com'] });
  theirs.urlRedirect = await moduleOf(urlRedirectRoutes.create, { name: 'victim-moves' });
  theirs.proxyRewrite = await moduleOf(proxyRewriteRoutes.create, { name: 'victim-rw' });
  theirs.luaAcl = await moduleOf(luaAclRoutes.create, { name: 'victim-acl' });
  theirs.tokenAuth = await moduleOf(tokenAuthRoutes.create, { name: 'victim-token' });
  theirs.waf = await moduleOf(wafRoutes.create, { name: 'victim-waf' });
  for (const [type, key] of [
    ['customHeader', 'moduleID'],
    ['urlRedirect', 'moduleID'],
    ['cors', 'corsID'],
    ['proxyRewrite', 'moduleID'],
    ['luaAcl', 'moduleID'],
    ['tokenAuth', 'moduleID'],
    ['waf', 'moduleID'],
  ] as const) {
    await ok(
      rawRequest(
        t.app,
        bindModuleRoutes[type],
        { params: { siteId: otherSiteId }, body: { domainIDs: [theirs.domain], [key]: theirs[type] } },
        { token: other },
      ),
    );
  }
  theirs.redirectRule = (
    (await ok(
      on(urlRedirectRoutes.addRules, {
        params: { siteId: otherSiteId, moduleId: theirs.urlRedirect },
        body: { items: [{ source: '/a', target: '/b' }] },
      }),
    )) as {
      id: number;
    }[]
  )[0]?.id as number;
  theirs.rewriteRule = (
    (await ok(
      on(proxyRewriteRoutes.addRules, {
        params: { siteId: otherSiteId, moduleId: theirs.proxyRewrite },
        body: {
          items: [{ matchType: 'prefix', source: '/api/', target: '/v2/' }],
        },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.aclRule = (
    (await ok(
      on(luaAclRoutes.addRule, {
        params: { siteId: otherSiteId, moduleId: theirs.luaAcl },
        body: ACL_RULE,
      }),
    )) as { id: number }
  ).id;
  theirs.tokenAuthRule = (
    (await ok(
      on(tokenAuthRoutes.addRules, {
        params: { siteId: otherSiteId, moduleId: theirs.tokenAuth },
        body: { items: [TOKEN_AUTH] },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.cacheRule = (
    (await ok(on(addCacheRules, { params: { siteId: otherSiteId }, body: { data: [{ scope: 'all', ttl: 60 }] } }))) as {
      id: number;
    }[]
  )[0]?.id as number;
  theirs.rateRule = (
    (await ok(on(addRateRules, { params: { siteId: otherSiteId }, body: { data: [{ url: '*', rate: 1 }] } }))) as {
      id: number;
    }[]
  )[0]?.id as number;
  const listRule = { ips: ['192.0.2.1'], url: '.*', methods: { get: true } };
  theirs.whitelistRule = (
    (await ok(on(addWhitelistRules, { params: { siteId: otherSiteId }, body: { data: [listRule] } }))) as {
      id: number;
    }[]
  )[0]?.id as number;
  theirs.blacklistRule = (
    (await ok(
      on(addBlacklistRules, { params: { siteId: otherSiteId }, body: { data: [{ ...listRule, blockType: 10 }] } }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.userAgentRule = (
    (await ok(
      on(addUserAgentRules, {
        params: { siteId: otherSiteId },
        body: { data: [{ urlRegex: '.*', userAgentRegex: 'curl', blockType: 10 }] },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.geoRule = (
    (await ok(
      on(addGeoRules, {
        params: { siteId: otherSiteId },
        body: { data: [{ isBlack: true, geoIDs: ['CN'], urlRegex: '.*', blockType: 10 }] },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.intervalLimit = (
    (await ok(
      on(addIntervalLimits, {
        params: { siteId: otherSiteId },
        body: { data: [{ urlRegex: '.*', seconds: 60, times: 100, blockType: 10 }] },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.secondLimit = (
    (await ok(
      on(addSecondLimits, {
        params: { siteId: otherSiteId },
        body: { data: [{ urlRegex: '.*', rate: 10, blockType: 10 }] },
      }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.antiCC = (
    (await ok(
      on(addAntiCCRules, { params: { siteId: otherSiteId }, body: { data: [{ urlRegex: '.*', blockType: 1 }] } }),
    )) as { id: number }[]
  )[0]?.id as number;
  theirs.headerRule = (
    (await ok(
      on(addHeaderRules, { params: { siteId: otherSiteId }, body: { data: [{ ...headerRule, blockType: 10 }] } }),
    )) as { id: number }[]
  )[0]?.id as number;
  const domainParams = { siteId: otherSiteId, domainId: theirs.domain };
  theirs.antiReferer = (
    (await ok(on(addAntiReferers, { params: domainParams, body: { data: [{ ...refererRule, blockType: 10 }] } }))) as {
      id: number;
    }[]
  )[0]?.id as number;
  theirs.antiHeader = (
    (await ok(on(addAntiHeaders, { params: domainParams, body: { data: [{ ...headerRule, blockType: 10 }] } }))) as {
      id: number;
    }[]
  )[0]?.id as number;
  // An auth group in use by a rule, with one credential of each kind.
  const site = { siteId: otherSiteId };
  theirs.authGroup = (
    (await ok(on(authGroupRoutes.createGroup, { params: site, body: { name: 'victim-rw' } }))) as {
      id: number;
    }
  ).id;
  const group = { siteId: otherSiteId, groupId: theirs.authGroup };
  theirs.authRule = (
    (await ok(
      on(authGroupRoutes.createRule, {
        params: site,
        body: { name: 'victim-rw', groupID: theirs.authGroup, match: 'prefix', path: '/' },
      }),
    )) as { id: number }
  ).id;
  theirs.basicAuth = (
    (await ok(
      on(authCredentialRoutes.createBasicAuth, { params: group, body: { username: 'victim', password: 'password1' } }),
    )) as { id: number }
  ).id;
  theirs.keyAuth = (
    (await ok(on(authCredentialRoutes.createKeyAuth, { params: group, body: keyAuth }))) as { id: number }
  ).id;
  theirs.jwtAuth = (
    (await ok(on(authCredentialRoutes.createJwtAuth, { params: group, body: jwtAuth }))) as {
      id: number;
    }
  ).id;
  // The customer's own objects the calls need besides the foreign id (a domain, a module, a group).
  theirs.ownDomain = (await f.addDomains(['mine.example']))[0] as number;
  theirs.ownAuthGroup = (
    (await ok(
      sendAs(t.app, f.user, authGroupRoutes.createGroup, { params: { siteId: f.siteId }, body: { name: 'mine' } }),
    )) as { id: number }
  ).id;
  // Layer-4 sites of both (the fixture's are layer-7), a port each, and the neighbour's layer-4 rules.
  const make = operatorCalls(t.app, f.client);
  const l4Product = await make.product('L4 ids', 4, [await make.group(f.zoneId, 'ids-tcp', 4)]);
  mine.l4Site = await make.site('own-l4', await rootId(t.app, 'user'), l4Product);
  const theirL4 = await make.site('their-l4', f.neighbourId, l4Product);
  const port = async (token: Token, siteId: number, n: number) =>
    (
      (await ok(
        sendAs(t.app, token, addSitePorts, {
          params: { siteId },
          body: { ports: [{ port: n, upstreams: [{ ip: '198.51.100.7', port: n }] }] },
        }),
      )) as { id: number }[]
    )[0]?.id as number;
  mine.l4Port = await port(f.user, mine.l4Site, 30001);
  const theirPort = await port(other, theirL4, 30002);
  const l4 = { siteId: theirL4 };
  const first = (r: unknown) => (r as { id: number }[])[0]?.id as number;
  theirs.l4Whitelist = first(
    await ok(on(addL4WhitelistRules, { params: l4, body: { data: [{ portID: theirPort, ips: ['192.0.2.1'] }] } })),
  );
  theirs.l4Blacklist = first(
    await ok(on(addL4BlacklistRules, { params: l4, body: { data: [{ portID: theirPort, ips: ['192.0.2.1'] }] } })),
  );
  theirs.position = first(
    await ok(
      on(addL4PositionRules, { params: l4, body: { data: [{ portID: theirPort, isBlack: true, positions: ['CN'] }] } }),
    ),
  );
  theirs.limitConn = first(
    await ok(on(addL4LimitConnRules, { params: l4, body: { data: [{ portID: theirPort, max: 3 }] } })),
  );
  for (const [name, id] of Object.entries(theirs)) expect(id, name).toBeGreaterThan(0);
}, 120_000);
afterAll(async () => t.close());

const upstream = { ip: '127.0.0.1', port: 8080 };
const keyAuth = { name: 'k', location: 'query' as const, param: 'k', key: 'k'.repeat(16) };
const jwtAuth = { name: 'j', alg: 'HS256' as const, secret: 's'.repeat(32) };
const authRule = (groupID: number | undefined) => ({ name: 'r', groupID, match: 'exact', path: '/x' });
/** A credential call on the customer's own group: the id under test is the credential's. */
const ownGroup = (x: Ids) => ({ groupId: x.ownAuthGroup });
const headerRule = { urlRegex: '.*', header: 'X-Bad', valueRegex: 'yes' };
const refererRule = { urlRegex: '.*', mode: 'allow' as const, referers: ['victim-secret.example'] };
type Ids = Record<string, number>;
/** A valid call of the route with `x` standing for the id under test (path and body). */
type Template = { path?: (x: Ids) => Record<string, number | undefined>; body: (x: Ids) => Record<string, unknown> };

/** Every write route of a customer's site that takes an id of an object of the site. */
const TEMPLATES: Record<string, Template> = {
  'user.domain.update': { body: (x) => ({ id: x.domain, upstreams: [upstream] }) },
  'user.domains.delete': { body: (x) => ({ ids: [x.domain] }) },
  'user.domains.status': { body: (x) => ({ domainIDs: [x.domain], status: 1 }) },
  'user.domains.forceSSL': { body: (x) => ({ domainIDs: [x.domain], forceSSL: true }) },
  'user.domains.balance': { body: (x) => ({ domainIDs: [x.domain], hashType: 1 }) },
  'user.domain.scheme': { path: (x) => ({ domainId: x.domain }), body: () => ({ scheme: 0 }) },
  'user.domains.autoSSL': { body: (x) => ({ domainIDs: [x.domain], autoSSL: true }) },
  'user.domains.checkCNAME': { body: (x) => ({ domainIDs: [x.domain] }) },
  'user.domains.verify': { body: (x) => ({ domainIDs: [x.domain] }) },
  'user.domain.upstreams.add': { path: (x) => ({ domainId: x.domain }), body: () => ({ upstreams: [upstream] }) },
  'user.domain.upstreams.delete': { path: (x) => ({ domainId: x.domain }), body: (x) => ({ ids: [x.upstream] }) },
  'user.domain.upstream.update': {
    path: (x) => ({ domainId: x.domain }),
    body: (x) => ({ id: x.upstream, ...upstream }),
  },
  'user.domains.modifyUpstreamIPs': {
    body: (x) => ({ domainIDs: [x.domain], oldIP: '127.0.0.1', newIP: '127.0.0.2' }),
  },
  'user.domains.upstreams': { body: (x) => ({ domainIDs: [x.domain], upstreams: [upstream] }) },
  'user.domains.tags': { body: (x) => ({ domainIDs: [x.domain], tags: ['t'] }) },
  'user.domains.copyToSite': { body: (x) => ({ domainIDs: [x.domain], siteID: f.siteId }) },
  'user.domains.createFrom': { body: (x) => ({ domainID: x.domain, names: ['copy.example'], status: 0 }) },
  'user.domains.export': { body: (x) => ({ ids: [x.domain] }) },
  'user.certificate.update': { body: (x) => ({ id: x.certificate, name: 'renamed' }) },
  'user.certificates.delete': { body: (x) => ({ ids: [x.certificate] }) },
  'user.certificate.domains': { body: (x) => ({ certificateID: x.certificate, domainIDs: [x.ownDomain] }) },
  'user.site.cacheRule.update': { path: (x) => ({ ruleId: x.cacheRule }), body: () => ({ scope: 'all', ttl: 60 }) },
  'user.site.cacheRules.delete': { body: (x) => ({ ids: [x.cacheRule] }) },
  'user.site.rate.update': { path: (x) => ({ ruleId: x.rateRule }), body: () => ({ url: '*', rate: 2 }) },
  'user.site.rates.delete': { body: (x) => ({ ids: [x.rateRule] }) },
  'user.site.firewall.whitelist.update': {
    body: (x) => ({ id: x.whitelistRule, ips: ['192.0.2.9'], url: '.*', methods: { get: true } }),
  },
  'user.site.firewall.whitelists.delete': { body: (x) => ({ ids: [x.whitelistRule] }) },
  'user.site.firewall.blacklist.update': {
    body: (x) => ({ id: x.blacklistRule, ips: ['192.0.2.9'], url: '.*', methods: { get: true }, blockType: 11 }),
  },
  'user.site.firewall.blacklists.delete': { body: (x) => ({ ids: [x.blacklistRule] }) },
  'user.site.firewall.userAgent.update': {
    body: (x) => ({ id: x.userAgentRule, urlRegex: '.*', userAgentRegex: 'wget', blockType: 11 }),
  },
  'user.site.firewall.userAgents.delete': { body: (x) => ({ ids: [x.userAgentRule] }) },
  'user.site.firewall.geo.update': {
    body: (x) => ({ id: x.geoRule, isBlack: false, geoIDs: ['US'], urlRegex: '.*', blockType: 11 }),
  },
  'user.site.firewall.geos.delete': { body: (x) => ({ ids: [x.geoRule] }) },
  'user.site.firewall.intervalLimit.update': {
    body: (x) => ({ id: x.intervalLimit, urlRegex: '.*', seconds: 10, times: 5, blockType: 11 }),
  },
  'user.site.firewall.intervalLimits.delete': { body: (x) => ({ ids: [x.intervalLimit] }) },
  'user.site.firewall.secondLimit.update': {
    body: (x) => ({ id: x.secondLimit, urlRegex: '.*', rate: 5, blockType: 11 }),
  },
  'user.site.firewall.secondLimits.delete': { body: (x) => ({ ids: [x.secondLimit] }) },
  'user.site.firewall.antiCC.update': { body: (x) => ({ id: x.antiCC, urlRegex: '.*', blockType: 3 }) },
  'user.site.firewall.antiCCs.delete': { body: (x) => ({ ids: [x.antiCC] }) },
  'user.site.firewall.l4Whitelist.update': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ id: x.l4Whitelist, portID: mine.l4Port, ips: ['192.0.2.9'] }),
  },
  'user.site.firewall.l4Whitelists.delete': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ ids: [x.l4Whitelist] }),
  },
  'user.site.firewall.l4Blacklist.update': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ id: x.l4Blacklist, portID: mine.l4Port, ips: ['192.0.2.9'] }),
  },
  'user.site.firewall.l4Blacklists.delete': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ ids: [x.l4Blacklist] }),
  },
  'user.site.firewall.position.update': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ id: x.position, portID: mine.l4Port, isBlack: false, positions: ['US'] }),
  },
  'user.site.firewall.positions.delete': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ ids: [x.position] }),
  },
  'user.site.firewall.limitConn.update': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ id: x.limitConn, portID: mine.l4Port, max: 5 }),
  },
  'user.site.firewall.limitConns.delete': {
    path: () => ({ siteId: mine.l4Site }),
    body: (x) => ({ ids: [x.limitConn] }),
  },
  'user.site.firewall.header.update': { body: (x) => ({ id: x.headerRule, ...headerRule, blockType: 11 }) },
  'user.site.firewall.headers.delete': { body: (x) => ({ ids: [x.headerRule] }) },
  'user.domain.antiReferers.add': {
    path: (x) => ({ domainId: x.domain }),
    body: () => ({ data: [{ ...refererRule, blockType: 10 }] }),
  },
  'user.domain.antiReferer.update': {
    path: (x) => ({ domainId: x.ownDomain }),
    body: (x) => ({ id: x.antiReferer, ...refererRule, blockType: 11 }),
  },
  'user.domain.antiReferers.delete': {
    path: (x) => ({ domainId: x.ownDomain }),
    body: (x) => ({ ids: [x.antiReferer] }),
  },
  'user.domain.antiHeaders.add': {
    path: (x) => ({ domainId: x.domain }),
    body: () => ({ data: [{ ...headerRule, blockType: 10 }] }),
  },
  'user.domain.antiHeader.update': {
    path: (x) => ({ domainId: x.ownDomain }),
    body: (x) => ({ id: x.antiHeader, ...headerRule, blockType: 11 }),
  },
  'user.domain.antiHeaders.delete': {
    path: (x) => ({ domainId: x.ownDomain }),
    body: (x) => ({ ids: [x.antiHeader] }),
  },
  'user.site.customHeader.update': { body: (x) => ({ id: x.customHeader, name: 'renamed' }) },
  'user.site.customHeaders.delete': { body: (x) => ({ ids: [x.customHeader] }) },
  'user.site.corsSetting.update': {
    body: (x) => ({ id: x.cors, name: 'renamed', origins: ['https://app.example.com'] }),
  },
  'user.site.corsSettings.delete': { body: (x) => ({ ids: [x.cors] }) },
  'user.site.urlRedirect.update': { body: (x) => ({ id: x.urlRedirect, name: 'renamed' }) },
  'user.site.urlRedirects.delete': { body: (x) => ({ ids: [x.urlRedirect] }) },
  'user.site.urlRedirect.rules.add': {
    path: (x) => ({ moduleId: x.urlRedirect }),
    body: () => ({ items: [{ source: '/x', target: '/y' }] }),
  },
  'user.site.urlRedirect.rule.update': {
    path: (x) => ({ moduleId: x.urlRedirect }),
    body: (x) => ({ id: x.redirectRule, source: '/x', target: '/y' }),
  },
  'user.site.urlRedirect.rules.delete': {
    path: (x) => ({ moduleId: x.urlRedirect }),
    body: (x) => ({ ids: [x.redirectRule] }),
  },
  'user.site.proxyRewrite.update': { body: (x) => ({ id: x.proxyRewrite, name: 'renamed' }) },
  'user.site.proxyRewrites.delete': { body: (x) => ({ ids: [x.proxyRewrite] }) },
  'user.site.proxyRewrite.rules.add': {
    path: (x) => ({ moduleId: x.proxyRewrite }),
    body: () => ({ items: [{ matchType: 'prefix', source: '/x/', target: '/y/' }] }),
  },
  'user.site.proxyRewrite.rule.update': {
    path: (x) => ({ moduleId: x.proxyRewrite }),
    body: (x) => ({ id: x.rewriteRule, matchType: 'prefix', source: '/x/', target: '/y/' }),
  },
  'user.site.proxyRewrite.rules.delete': {
    path: (x) => ({ moduleId: x.proxyRewrite }),
    body: (x) => ({ ids: [x.rewriteRule] }),
  },
  'user.domains.module.customHeader': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.customHeader }) },
  'user.domains.module.urlRedirect': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.urlRedirect }) },
  'user.domains.module.cors': { body: (x) => ({ domainIDs: [x.ownDomain], corsID: x.cors }) },
  'user.domains.module.proxyRewrite': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.proxyRewrite }) },
  'user.site.luaAcl.update': { body: (x) => ({ id: x.luaAcl, name: 'renamed' }) },
  'user.site.luaAcls.delete': { body: (x) => ({ ids: [x.luaAcl] }) },
  'user.site.luaAcl.rule.add': { path: (x) => ({ moduleId: x.luaAcl }), body: () => ACL_RULE },
  'user.site.luaAcl.rule.update': {
    path: (x) => ({ moduleId: x.luaAcl }),
    body: (x) => ({ ...ACL_RULE, id: x.aclRule }),
  },
  'user.site.luaAcl.rule.enable': {
    path: (x) => ({ moduleId: x.luaAcl }),
    body: (x) => ({ ids: [x.aclRule], enabled: false }),
  },
  'user.site.luaAcl.rules.delete': { path: (x) => ({ moduleId: x.luaAcl }), body: (x) => ({ ids: [x.aclRule] }) },
  'user.domains.module.luaAcl': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.luaAcl }) },
  'user.site.tokenAuth.update': { body: (x) => ({ id: x.tokenAuth, name: 'renamed' }) },
  'user.site.tokenAuths.delete': { body: (x) => ({ ids: [x.tokenAuth] }) },
  'user.site.tokenAuth.auths.add': { path: (x) => ({ moduleId: x.tokenAuth }), body: () => ({ items: [TOKEN_AUTH] }) },
  'user.site.tokenAuth.auth.update': {
    path: (x) => ({ moduleId: x.tokenAuth }),
    body: (x) => ({ ...TOKEN_AUTH, id: x.tokenAuthRule }),
  },
  'user.site.tokenAuth.auths.delete': {
    path: (x) => ({ moduleId: x.tokenAuth }),
    body: (x) => ({ ids: [x.tokenAuthRule] }),
  },
  'user.domains.module.tokenAuth': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.tokenAuth }) },
  'user.site.waf.update': { body: (x) => ({ id: x.waf, name: 'renamed', mode: 'detect' }) },
  'user.site.wafs.delete': { body: (x) => ({ ids: [x.waf] }) },
  'user.domains.module.waf': { body: (x) => ({ domainIDs: [x.ownDomain], moduleID: x.waf }) },
  'user.site.auth.group.update': { body: (x) => ({ id: x.authGroup, name: 'renamed' }) },
  'user.site.auth.groups.delete': { body: (x) => ({ ids: [x.authGroup] }) },
  'user.site.auth.rule.create': { body: (x) => authRule(x.authGroup) },
  'user.site.auth.rule.update': { body: (x) => ({ ...authRule(x.ownAuthGroup), id: x.authRule }) },
  'user.site.auth.rules.delete': { body: (x) => ({ ids: [x.authRule] }) },
  'user.site.auth.group.basicAuth.create': {
    path: (x) => ({ groupId: x.authGroup }),
    body: () => ({ username: 'u', password: 'password1' }),
  },
  'user.site.auth.group.basicAuth.update': {
    path: ownGroup,
    body: (x) => ({ id: x.basicAuth, username: 'u', password: 'password1' }),
  },
  'user.site.auth.group.basicAuths.delete': { path: ownGroup, body: (x) => ({ ids: [x.basicAuth] }) },
  'user.site.auth.group.keyAuth.create': { path: (x) => ({ groupId: x.authGroup }), body: () => keyAuth },
  'user.site.auth.group.keyAuth.update': { path: ownGroup, body: (x) => ({ ...keyAuth, id: x.keyAuth }) },
  'user.site.auth.group.keyAuths.delete': { path: ownGroup, body: (x) => ({ ids: [x.keyAuth] }) },
  'user.site.auth.group.jwtAuth.create': { path: (x) => ({ groupId: x.authGroup }), body: () => jwtAuth },
  'user.site.auth.group.jwtAuth.update': { path: ownGroup, body: (x) => ({ ...jwtAuth, id: x.jwtAuth }) },
  'user.site.auth.group.jwtAuths.delete': { path: ownGroup, body: (x) => ({ ids: [x.jwtAuth] }) },
};

/**
 * Write routes of a site that take no id of an object of the site (they create, or act on the
 * site as a whole), and the layer-4 port routes, whose fixture is a layer-4 site: site-ports.test.ts
 * checks another customer's port ids there.
 */
const NO_OBJECT_ID = new Set([
  'user.site.tags.set',
  'user.domains.create',
  'user.domains.simpleCreate',
  'user.domains.deleteByNames',
  'user.certificate.create',
  'user.site.cacheRules.add',
  'user.site.currentCache.delete',
  'user.site.purgeCache.create',
  'user.site.customHeaders.create',
  'user.site.corsSettings.create',
  'user.site.urlRedirects.create',
  'user.site.proxyRewrites.create',
  'user.site.luaAcls.create',
  'user.site.tokenAuths.create',
  'user.site.wafs.create',
  'user.site.auth.group.create',
  'user.site.gzip.set',
  'user.site.rates.add',
  'user.site.firewall.whitelists.add',
  'user.site.firewall.blacklists.add',
  'user.site.firewall.userAgents.add',
  'user.site.firewall.geos.add',
  'user.site.firewall.intervalLimits.add',
  'user.site.firewall.secondLimits.add',
  'user.site.firewall.antiCCs.add',
  'user.site.firewall.headers.add',
  // A layer-4 rule's port is checked as a field (101003), a port of another site like a wrong one.
  'user.site.firewall.l4Whitelists.add',
  'user.site.firewall.l4Blacklists.add',
  'user.site.firewall.positions.add',
  'user.site.firewall.limitConns.add',
  'user.site.firewall.abuseIP.update',
  'user.site.errorPage.set',
  'user.site.errorPages.delete',
  'user.site.errorPages.language',
  'user.site.ports.add',
  'user.site.port.update',
  'user.site.ports.delete',
  'user.site.ports.batchCreate',
  'user.site.port.upstreams.add',
  'user.site.port.upstreams.delete',
  'user.site.port.upstream.update',
  'user.site.setting.ports.enable',
  'user.site.setting.ports.disable',
]);

const SITE_WRITES = ALL_ROUTES.filter((r) => r.method !== 'GET' && r.path.startsWith('/user/site/{siteId}'));

async function answer(route: AnyRoute, template: Template, ids: Ids) {
  const params: Record<string, unknown> = { siteId: f.siteId, ...(template.path?.(ids) ?? {}) };
  for (const name of pathParamNames(route.path)) expect(params[name], `${route.id} ${name}`).toBeDefined();
  const res = await rawRequest(t.app, route, { params, body: template.body(ids) }, { token: f.user });
  return { status: res.statusCode, body: res.json() as { code?: number; extra?: unknown } };
}

describe("another tenant's ids", () => {
  it('every write route of a site that takes an object id is walked', () => {
    const unknown = SITE_WRITES.filter((r) => !(r.id in TEMPLATES) && !NO_OBJECT_ID.has(r.id)).map((r) => r.id);
    expect(unknown).toEqual([]);
  });

  it('answer exactly as an id that does not exist, and name nothing of theirs', async () => {
    const wrong: string[] = [];
    const missing = Object.fromEntries(Object.keys(theirs).map((k) => [k, MISSING]));
    for (const route of SITE_WRITES) {
      const template = TEMPLATES[route.id];
      if (!template) continue;
      // Every id the call names is the neighbour's, or one that does not exist; the customer's own stay.
      const foreign = await answer(route, template, theirs);
      const absent = await answer(route, template, { ...missing, ownDomain: theirs.ownDomain as number });
      const text = JSON.stringify(foreign.body);
      if (absent.body.code !== 101018) wrong.push(`${route.id}: a missing id answers ${JSON.stringify(absent.body)}`);
      if (foreign.status !== absent.status || text !== JSON.stringify(absent.body)) {
        wrong.push(`${route.id}: their id answers ${text}, a missing one ${JSON.stringify(absent.body)}`);
      }
      const leaked = secretNames.filter((name) => text.includes(name));
      if (leaked.length > 0) wrong.push(`${route.id}: names ${leaked.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it("leave the neighbour's objects as they were", async () => {
    const certs = (await f.call(listCertificates, { params: { siteId: f.otherSiteId } }, f.other)).json();
    expect(certs.data.map((c: { name: string }) => c.name)).toEqual(['victim-cert']);
    const headers = (await f.call(customHeaderRoutes.list, { params: { siteId: f.otherSiteId } }, f.other)).json();
    expect(headers.data.map((m: { name: string }) => m.name)).toEqual(['victim-headers']);
  });
});

describe("another operator's ids", () => {
  /** Delete routes of the operator tier whose body is `{ id }` or `{ ids }` with no other field. */
  const OPERATOR_DELETES = ALL_ROUTES.filter(
    (r) => r.method === 'DELETE' && r.path.startsWith('/client/') && 'tiers' in r.access,
  );

  it('deleting an in-use object of another operator answers as a missing one', async () => {
    const rivalId = await addAccount(t.app, 'client', 'rival-op');
    const rival = await signIn(t.app, 'client', 'rival-op');
    const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, rival, route, ...args);
    const zone = (await as(createZone, { body: { name: 'Their zone' } })).json().data.id as number;
    const group = (await as(createGroup, { params: { zoneID: zone }, body: { name: 'their-web', portType: 7 } })).json()
      .data.id as number;
    const product = (
      await as(createProduct, { body: { name: 'Their CDN', portType: 7, mainGroupIDs: [group] } })
    ).json().data.id as number;
    // Their zone holds a group a product uses, their product a site: all in use.
    const rivalCustomer = await addAccount(t.app, 'user', 'rival-own-customer', rivalId);
    const site = (
      await as(createSite, { body: { siteName: 'their-site', userID: rivalCustomer, productID: product } })
    ).json();
    const foreign: Record<string, number> = { zone, group, product, site: site.data?.siteID ?? 0 };
    const byRoute: Record<string, Record<string, unknown>> = {
      'client.zone.delete': { id: foreign.zone },
      'client.group.delete': { id: foreign.group },
      'client.product.delete': { id: foreign.product },
      'client.sites.delete': { ids: [foreign.site] },
    };
    const wrong: string[] = [];
    for (const route of OPERATOR_DELETES) {
      const body = byRoute[route.id];
      if (!body) continue;
      const params = { zoneID: f.zoneId };
      const theirAnswer = (await rawRequest(t.app, route, { params, body }, { token: f.client })).json();
      const missing = JSON.parse(JSON.stringify(body).replace(/\d+/g, String(MISSING)));
      const missingAnswer = (await rawRequest(t.app, route, { params, body: missing }, { token: f.client })).json();
      if (missingAnswer.code !== 101018) wrong.push(`${route.id}: missing answers ${JSON.stringify(missingAnswer)}`);
      if (theirAnswer.code !== missingAnswer.code)
        wrong.push(`${route.id}: theirs answers ${JSON.stringify(theirAnswer)}`);
    }
    expect(wrong).toEqual([]);
    // Still theirs, still there.
    expect((await as(productGroups, { params: { id: product }, query: { isBackup: 'false' } })).statusCode).toBe(200);
  });
});
