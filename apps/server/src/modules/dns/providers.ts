import type { DnsProviderType, DnsSetting, DnsSettingIn } from '@rampart/contract';
import { type OutgoingCheck, OutgoingRefusedError } from '../../platform/http/outgoing.js';
import type { TargetGuard } from '../../platform/http/target-guard.js';
import { CLOUDFLARE_API, CloudflareProvider } from './cloudflare.provider.js';
import { type DnsProvider, DnsProviderError } from './dns-provider.js';
import { DNSPOD_API, DnspodProvider } from './dnspod.provider.js';
import { PowerDnsProvider } from './powerdns.provider.js';
import { Rfc2136Provider } from './rfc2136.provider.js';

/** The write-only field of each provider type (the one stored sealed). */
export const SECRET_FIELD: Readonly<Record<DnsProviderType, string>> = {
  powerdns: 'apiKey',
  rfc2136: 'secret',
  cloudflare: 'apiToken',
  dnspod: 'token',
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A setting's visible fields (what GET shows, without `hasSecret`). */
export type DnsSettingFields = DistributiveOmit<DnsSetting, 'hasSecret'>;

/** Where the hosted APIs are (their public addresses unless a test points them at stand-ins). */
export interface ProviderEndpoints {
  readonly cloudflare?: string;
  readonly dnspod?: string;
  readonly timeoutMs?: number;
  readonly userAgent?: string;
}

/** The secret of a submitted setting, whichever field carries it for its type. */
export function secretOf(input: DnsSettingIn): string | undefined {
  switch (input.type) {
    case 'powerdns':
      return input.apiKey;
    case 'rfc2136':
      return input.secret;
    case 'cloudflare':
      return input.apiToken;
    case 'dnspod':
      return input.token;
  }
}

/** The visible fields of a submitted setting (what GET shows, without `hasSecret`). */
export function visibleOf(input: DnsSettingIn): DnsSettingFields {
  switch (input.type) {
    case 'powerdns':
      return { type: input.type, apiUrl: input.apiUrl, serverId: input.serverId, zone: input.zone, ttl: input.ttl };
    case 'rfc2136':
      return {
        type: input.type,
        server: input.server,
        zone: input.zone,
        keyName: input.keyName,
        algorithm: input.algorithm,
        ttl: input.ttl,
      };
    case 'cloudflare':
    case 'dnspod':
      return { type: input.type, zone: input.zone, ttl: input.ttl };
  }
}

/** The provider adapter for a setting and its (opened) secret. */
export function providerFor(
  setting: DnsSettingFields,
  secret: string,
  targets: TargetGuard,
  endpoints: ProviderEndpoints = {},
): DnsProvider {
  const timeoutMs = endpoints.timeoutMs;
  const common = timeoutMs === undefined ? { targets } : { timeoutMs, targets };
  switch (setting.type) {
    case 'powerdns':
      return new PowerDnsProvider({
        apiUrl: setting.apiUrl,
        apiKey: secret,
        serverId: setting.serverId,
        zone: setting.zone,
        ...common,
      });
    case 'rfc2136':
      return new Rfc2136Provider({
        server: setting.server,
        zone: setting.zone,
        key: { name: setting.keyName, algorithm: setting.algorithm, secret },
        ...common,
      });
    case 'cloudflare':
      return new CloudflareProvider({
        apiToken: secret,
        zone: setting.zone,
        ...(endpoints.cloudflare ? { baseUrl: endpoints.cloudflare } : {}),
        ...common,
      });
    case 'dnspod':
      return new DnspodProvider({
        token: secret,
        zone: setting.zone,
        ...(endpoints.dnspod ? { baseUrl: endpoints.dnspod } : {}),
        ...(endpoints.userAgent ? { userAgent: endpoints.userAgent } : {}),
        ...common,
      });
  }
}

/** Where a provider's calls go, named as the outgoing URL list is checked (platform/http/outgoing.ts). */
export function destinationOf(setting: DnsSettingFields, endpoints: ProviderEndpoints = {}): string {
  switch (setting.type) {
    case 'powerdns':
      return setting.apiUrl;
    case 'rfc2136':
      return `dns://${setting.server}`;
    case 'cloudflare':
      return endpoints.cloudflare ?? CLOUDFLARE_API;
    case 'dnspod':
      return endpoints.dnspod ?? DNSPOD_API;
  }
}

/**
 * The provider with the operator's outgoing check before each call: a refused destination is a
 * DnsProviderError like any provider failure, so its words reach the caller (101010) and the
 * unprocessed records' error text.
 */
export function guardedProvider(provider: DnsProvider, destination: string, check: OutgoingCheck): DnsProvider {
  const pass = async () => {
    try {
      await check(destination);
    } catch (error) {
      if (error instanceof OutgoingRefusedError) throw new DnsProviderError(error.message);
      throw error;
    }
  };
  return {
    zone: provider.zone,
    lines: provider.lines,
    test: async () => {
      await pass();
      return provider.test();
    },
    listRecords: async (names) => {
      await pass();
      return provider.listRecords(names);
    },
    applyChanges: async (changes) => {
      await pass();
      return provider.applyChanges(changes);
    },
  };
}
