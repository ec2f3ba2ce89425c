import { EXPORT_DOMAIN_COLUMNS, type SiteDomain } from '@rampart/contract';

/** One CSV cell (RFC 4180 quoting); a leading = + - @ is neutralised so spreadsheets do not evaluate it. */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A site's domains as a CSV file (EXPORT_DOMAIN_COLUMNS, CRLF lines), named after the site and the time. */
export function domainsCsv(siteId: number, domains: SiteDomain[], now = new Date()): { fileName: string; csv: string } {
  const lines = [
    EXPORT_DOMAIN_COLUMNS.join(','),
    ...domains.map((d) =>
      [
        d.name,
        d.status,
        d.scheme === 1 ? 'https' : 'http',
        d.hashType === 1 ? 'ipHash' : 'roundRobin',
        d.hostName,
        d.forceSSL,
        d.autoSSL,
        d.portMap,
        d.cname,
        d.cnameStatus,
        d.certificateName,
        d.tags.join(' '),
        d.upstreams
          .map(
            (u) =>
              `${u.ip.includes(':') ? `[${u.ip}]` : u.ip}:${u.port}*${u.weight}${u.backup ? ' backup' : ''}${u.status === 1 ? '' : ' disabled'}`,
          )
          .join('; '),
        d.createdAt,
        d.updatedAt,
      ]
        .map(csvCell)
        .join(','),
    ),
  ];
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  return { fileName: `domains-site${siteId}-${stamp}.csv`, csv: `${lines.join('\r\n')}\r\n` };
}
