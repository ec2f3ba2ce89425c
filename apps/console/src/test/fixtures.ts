import type { domainRoutes, InitializedNode, ManagedAccount, RouteReply, UserSiteDetail } from '@rampart/contract';
import { getUserSite, listDomains, metaCertificates } from '@rampart/contract';
import { type FakeApi, ok } from './fake-api';

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
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

/** Fake answers for {@link SITE_SETTING}: the site, its domains (as one page) and no certificates. */
export function stubSitePage(api: FakeApi, domains: SiteDomainRow[], site: UserSiteDetail = userSite()): void {
  api.on(getUserSite, { siteId: site.siteID }, ok(site));
  api.on(listDomains, { siteId: site.siteID }, { status: 200, body: { data: domains, total: domains.length } });
  api.on(metaCertificates, { siteId: site.siteID }, ok([]));
}
