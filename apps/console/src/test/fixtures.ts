import type {
  BlockedIpEntry,
  CertificateDetail,
  CertificateSummary,
  domainRoutes,
  Group,
  GzipSetting,
  InitializedNode,
  ManagedAccount,
  RouteReply,
  UserSiteDetail,
} from '@rampart/contract';
import { getUserSite, listDomains, metaCertificates } from '@rampart/contract';
import { type FakeApi, fail, ok, okPage, signedInFakeApi } from './fake-api';

/** An account as `GET {auth}/accounts` answers it; tests override what they look at. */
export function managedAccount(overrides: Partial<ManagedAccount> = {}): ManagedAccount {
  return {
    id: 21,
    auth: 'user',
    account: 'acme',
    name: 'Acme Ltd',
    email: 'ops@acme.test',
    status: 'normal',
    isRoot: true,
    hasPassword: true,
    login2FAType: 0,
    maxLogExportTimes: 10,
    zoneLimit: 0,
    subCount: 0,
    role: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/** An initialised node as `GET client/nodes/initialized` answers it; tests override what they look at. */
export function initializedNode(overrides: Partial<InitializedNode> = {}): InitializedNode {
  return {
    id: 21,
    name: 'edge-paris-1',
    ips: ['198.51.100.4'],
    version: '0.3.0',
    zoneId: 2,
    zoneName: 'Europe',
    groups: [],
    appliedVersion: 'a'.repeat(32),
    currentVersion: 'a'.repeat(32),
    appliedPlane: '',
    currentPlane: '',
    lastError: '',
    snapshotError: '',
    failedPorts: [],
    connection: 'online',
    lastSeenAt: '2026-03-01T10:05:00.000Z',
    createdAt: '2026-03-01T10:00:00.000Z',
    status: 'on',
    memo: '',
    monitor: false,
    portType: 7,
    logRotateTime: null,
    upgradeStatus: 'none',
    subNodeCount: 0,
    dnsStatus: 'none',
    ...overrides,
  };
}

/** A group of a zone as `GET client/zone/{zoneID}/groups` answers it: `edge-a` (id 5) in zone 1, for sites. */
export function nodeGroup(overrides: Partial<Group> = {}): Group {
  return {
    id: 5,
    zoneId: 1,
    name: 'edge-a',
    portType: 7,
    isBackup: false,
    memo: '',
    nodeCount: 0,
    virtualNodeCount: 0,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The customer's site most site-page tests open: `my shop` (id 3), a layer-7 site of product 4. */
export function userSite(overrides: Partial<UserSiteDetail> = {}): UserSiteDetail {
  return {
    siteID: 3,
    siteName: 'my shop',
    status: 'normal',
    tags: [],
    productID: 4,
    productName: 'Standard',
    userID: 7,
    userAccount: 'alice',
    expiredAt: null,
    forceBackup: false,
    createdAt: '2026-03-01T10:00:00.000Z',
    portType: 7,
    ...overrides,
  };
}

/** The site page of {@link userSite}. */
export const SITE_SETTING = '/user/sitesManagement/sitesSetting/3/my%20shop';

/** A domain of the site's list (`GET user/site/{id}/domains`): `www.example.com`, one origin, nothing bound. */
export type SiteDomainRow = RouteReply<typeof domainRoutes.listDomains>['data'][number];
export function siteDomain(overrides: Partial<SiteDomainRow> = {}): SiteDomainRow {
  return {
    id: 9,
    siteID: 3,
    name: 'www.example.com',
    status: 1,
    scheme: 0,
    hashType: 0,
    hostName: '',
    forceSSL: false,
    autoSSL: false,
    portMap: false,
    cname: '0123456789abcdef.cname.example.net',
    cnameStatus: 0,
    cnameCheckedAt: null,
    proofStatus: 1,
    proofRecordName: '_rampart-challenge.www.example.com',
    proofToken: '0123456789abcdef0123456789abcdef',
    proofCheckedAt: null,
    certificateID: 0,
    certificateName: '',
    certStatus: 0,
    tags: [],
    upstreams: [{ id: 40, ip: '192.0.2.10', port: 8080, weight: 1, backup: false, status: 1 }],
    upstreamURL: '192.0.2.10:8080',
    upstreamCount: 1,
    customHeaderModuleID: 0,
    customHeaderModuleName: '',
    urlRedirectModuleID: 0,
    urlRedirectModuleName: '',
    corsID: 0,
    corsName: '',
    proxyRewriteModuleID: 0,
    proxyRewriteModuleName: '',
    luaAclModuleID: 0,
    luaAclModuleName: '',
    tokenAuthModuleID: 0,
    tokenAuthModuleName: '',
    wafModuleID: 0,
    wafModuleName: '',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

/** A certificate of the site's list (`GET user/site/{id}/certificates`): `wildcard-2026` (id 7), expiring. */
export function certificateSummary(overrides: Partial<CertificateSummary> = {}): CertificateSummary {
  return {
    id: 7,
    siteID: 3,
    name: 'wildcard-2026',
    memo: '',
    names: ['*.example.com', 'example.com'],
    issuer: 'Example CA',
    notBefore: '2026-01-01T00:00:00.000Z',
    notAfter: '2026-04-01T00:00:00.000Z',
    status: 'expiring',
    domainCount: 1,
    createdAt: '2026-01-02T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    ...overrides,
  };
}

/** One certificate as `GET` (and an upload) answers it: {@link certificateSummary} with its chain, assigned to nothing. */
export function certificateDetail(overrides: Partial<CertificateDetail> = {}): CertificateDetail {
  return {
    ...certificateSummary(),
    certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    fingerprintSha256: 'AB:CD:EF',
    domains: [],
    ...overrides,
  };
}

/**
 * An address the edge blocked as the block lists answer it: `203.0.113.7` on site 3 (`my shop`) by
 * the blacklist's rule 11, on node `edge-fra-1` of zone `Europe`, for an hour.
 */
export function blockedIp(overrides: Partial<BlockedIpEntry> = {}): BlockedIpEntry {
  return {
    id: 5,
    ip: '203.0.113.7',
    siteID: 3,
    siteName: 'my shop',
    cause: 'blacklist',
    ruleID: 11,
    nodeID: 2,
    nodeName: 'edge-fra-1',
    zoneID: 1,
    zoneName: 'Europe',
    blockedAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T11:00:00.000Z',
    ...overrides,
  };
}

/** A site's HTTP compression as `GET user/site/{id}/setting/gzip` answers it: off, the two usual types, never set. */
export function gzipSetting(overrides: Partial<GzipSetting> = {}): GzipSetting {
  return { enabled: false, types: ['text/html', 'text/css'], minLength: 1024, updatedAt: null, ...overrides };
}

/** Fake answers for {@link SITE_SETTING}: the site, its domains (as one page) and no certificates. */
export function stubSitePage(api: FakeApi, domains: SiteDomainRow[], site: UserSiteDetail = userSite()): void {
  api.on(getUserSite, { siteId: site.siteID }, ok(site));
  api.on(listDomains, { siteId: site.siteID }, okPage(domains));
  api.on(metaCertificates, { siteId: site.siteID }, ok([]));
}

/**
 * A customer signed in on a fake API, for the tests of one tab of site 3's settings that do not
 * look at the page's header: the site itself is not found.
 */
export function signedInSiteTab(): FakeApi {
  const api = signedInFakeApi('user');
  api.on(getUserSite, { siteId: 3 }, fail(404, 101004, 'not here'));
  return api;
}
