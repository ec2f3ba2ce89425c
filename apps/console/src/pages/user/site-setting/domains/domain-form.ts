import {
  DOMAINS_PER_REQUEST_MAX,
  type DomainInput,
  domainInputSchema,
  type HashType,
  numberedLines,
  type OriginScheme,
  type SiteDomain,
  type UpstreamInput,
} from '@rampart/contract';
import type { FormRule } from 'antd';
import { lineListRules } from '../../../../forms/line-rules';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { i18n } from '../../../../i18n/i18n';

/** One upstream row of the form; `status` is kept from the domain (new rows are enabled). */
export interface UpstreamRow {
  ip: string;
  port: number;
  weight: number;
  backup: boolean;
  status: 0 | 1;
}

/** The domain form: several names (create) sharing one set of settings and upstreams. */
export interface DomainValues {
  names: string;
  upstreams: UpstreamRow[];
  scheme: OriginScheme;
  hashType: HashType;
  hostName: string;
  forceSSL: boolean;
  autoSSL: boolean;
  portMap: boolean;
  /** 0: none. */
  certificateID: number;
}

export const NEW_UPSTREAM: UpstreamRow = { ip: '', port: 80, weight: 1, backup: false, status: 1 };

export const NEW_DOMAIN: Partial<DomainValues> = {
  names: '',
  upstreams: [NEW_UPSTREAM],
  scheme: 0,
  hashType: 0,
  hostName: '',
  forceSSL: false,
  autoSSL: false,
  portMap: false,
  certificateID: 0,
};

/** The form values of an existing domain. */
export function domainValues(domain: SiteDomain): Partial<DomainValues> {
  return {
    upstreams: domain.upstreams.map(({ ip, port, weight, backup, status }) => ({ ip, port, weight, backup, status })),
    scheme: domain.scheme,
    hashType: domain.hashType,
    hostName: domain.hostName,
    forceSSL: domain.forceSSL,
    autoSSL: domain.autoSSL,
    portMap: domain.portMap,
    certificateID: domain.certificateID,
  };
}

/** The settings every domain of the form shares, as the body takes them. */
export function domainSettings(values: DomainValues) {
  const upstreams: UpstreamInput[] = values.upstreams.map((row) => ({ ...row, port: Number(row.port) }));
  return {
    upstreams,
    scheme: values.scheme,
    hashType: values.hashType,
    hostName: values.hostName ?? '',
    forceSSL: values.forceSSL,
    autoSSL: values.autoSSL ?? false,
    portMap: values.portMap ?? false,
    certificateID: values.certificateID ?? 0,
  };
}

/** `POST .../domains`: one entry per name line, each with the shared settings. */
export function domainsToCreate(values: DomainValues): DomainInput[] {
  const settings = domainSettings(values);
  return numberedLines(values.names).map(({ value }) => ({ name: value, ...settings }));
}

/**
 * Where a field error of `POST .../domains` lands: any entry's name on the names box, an upstream
 * field on that row, the other settings on their field (the settings are shared by every entry).
 */
export const createFieldOf: FieldNameOf = (path) => {
  const [root, , field, ...rest] = path;
  if (root !== 'domains') return undefined;
  if (field === undefined || field === 'name') return 'names';
  if (field === 'upstreams') return rest.length === 0 ? undefined : ['upstreams', Number(rest[0]), ...rest.slice(1)];
  return field;
};

const nameLineText = (line: number, message: string) => i18n.t('domains:form.lineError', { line, message });

/**
 * The names box of new domains: one valid domain name per line (a `*.` wildcard allowed), at least
 * one, at most 500, none twice. Names are compared as the server compares them (the contract's
 * reading of a name: ASCII, lower case), which refuses a repeated new name (101025 in a 101009).
 */
export const namesRules: FormRule[] = lineListRules(
  domainInputSchema.shape.name,
  DOMAINS_PER_REQUEST_MAX,
  nameLineText,
  (line, value, first) => i18n.t('domains:form.lineRepeated', { line, value, first }),
);

/** The names box of domains to delete: as above, a repeated name allowed (the server deletes it once). */
export const existingNamesRules: FormRule[] = lineListRules(
  domainInputSchema.shape.name,
  DOMAINS_PER_REQUEST_MAX,
  nameLineText,
);
