// The calls of the console spec, as `METHOD path` lines: read from section 7 ("Calls") of the two spec
// documents (console-spec-part1.md, console-spec-part2.md), sorted and de-duplicated. Path parameters
// are written `{}`; `{auth}` is expanded to user, client and admin (part one, section 7: "{auth} is user,
// client or admin"); each method is its own line. Usage: node scripts/spec-calls.mjs [spec-dir]
// (default ../shared/spec relative to the repository root). Lines whose method or path the spec does
// not write exactly ("methods not shown", a path given in words such as "zone node") are not calls of
// the list; `--inexact` prints them on stderr with the reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TIERS = ['user', 'client', 'admin'];
const M = '(?:GET|POST|PUT|PATCH|DELETE)';
const METHODS_RE = new RegExp(`^${M}(?:\\s*(?:,|/|and)\\s*${M})*`);
/** A parenthesis that lists methods, as in `ports (GET, POST, DELETE)` or `(GET with name, sortBy; DELETE)`. */
const METHOD_PAREN_RE = new RegExp(`^${M}(?: with [^;]+)?(?:\\s*[;,/]\\s*${M}(?: with [^;]+)?)*$`);
const PATH_RE = /^[\w{}|./-]+$/;

/**
 * Lines the generic forms cannot read, rewritten into them. Each says how it is read.
 */
export const REWRITES = new Map([
  // "A and B (methods) and C, D (methods) under X": each name under X with its own methods.
  [
    'antiReferers and antiHeaders (GET, POST, DELETE) and antiReferer, antiHeader (PUT) under domain/{domainId}',
    'domain/{domainId}/antiReferers, antiHeaders (GET, POST, DELETE), domain/{domainId}/antiReferer, antiHeader (PUT)',
  ],
  // "PUT upstream" follows the domain's upstreams: the singular beside the plural, as port/{portId}/upstream below.
  [
    'GET, POST, DELETE domain/{domainId}/upstreams; PUT upstream',
    'GET, POST, DELETE domain/{domainId}/upstreams; PUT domain/{domainId}/upstream',
  ],
  [
    'Ports: ports (GET, POST, DELETE), port (PUT), port/batchCreate (POST), port/{portId}/upstreams (GET, POST, DELETE), upstream (PUT), setting/ports (POST, DELETE), zonePorts (GET)',
    'ports (GET, POST, DELETE), port (PUT), port/batchCreate (POST), port/{portId}/upstreams (GET, POST, DELETE), port/{portId}/upstream (PUT), setting/ports (POST, DELETE), zonePorts (GET)',
  ],
  // metaCertificates has no method written; like every meta list of the spec (metaSites, metaDomains,
  // metaZones, metaProducts, metaRoles) it is read with GET.
  [
    'Certificates: certificates (GET with name, sortBy, orderBy; DELETE), metaCertificates, certificate/{id} (GET), certificate (PUT, POST), certificate/domains (PATCH)',
    'certificates (GET, DELETE), metaCertificates (GET), certificate/{id} (GET), certificate (PUT, POST), certificate/domains (PATCH)',
  ],
  // The operator side of log push: the same calls as the user's, under client/logPush.
  [
    'Operator side: client/logPush/events GET/POST/PUT/DELETE (ids); POST manuallyPush; GET logs.',
    'client/logPush/events GET/POST/PUT/DELETE; POST client/logPush/manuallyPush; GET client/logPush/logs',
  ],
  // The bare names after "PATCH client/site/users" are further PATCH calls under client/site; the later
  // "site/..." paths are under client/ as the line's first path.
  [
    'PATCH client/site/users; product/change; product/refresh; status; limitations; expired; forceBackup; DELETE site/currentCache; GET/PUT site/tags',
    'PATCH client/site/users, product/change, product/refresh, status, limitations, expired, forceBackup; DELETE client/site/currentCache; GET/PUT client/site/tags',
  ],
  // "domains/..." after "GET client/domains" are the operator's, under client/ (as user/domains/meta for the user).
  [
    'GET client/domains; POST domains/meta; POST/GET domains/tags; GET domains/ids',
    'GET client/domains; POST client/domains/meta; POST/GET client/domains/tags; GET client/domains/ids',
  ],
  // ".../renew" renews the listed automatic certificates: under client/autoCertificates.
  [
    'GET client/autoCertificates; POST .../renew (ids)',
    'GET client/autoCertificates; POST client/autoCertificates/renew',
  ],
  // The virtual nodes' own path is named in words only; the records below it are written under
  // ".../virtualNode/{id}", the zone's virtualNode path (client/zone/{zoneID}/virtualNode). Its GET is
  // the list, plural as the zone's groups' ("GET client/zone/{zoneID}/groups; POST/PATCH/DELETE
  // .../group") and as the spec's own ".../virtualNodes" on the next line.
  [
    'GET/POST/PUT/DELETE under the zone virtualNode path',
    'GET client/zone/{zoneID}/virtualNodes; POST/PUT/DELETE client/zone/{zoneID}/virtualNode',
  ],
  // The lines of a virtual node are under the zone's group of the section before ("GET .../group/{g}/lines/nodeNums").
  [
    'GET/POST/DELETE/PATCH .../group/{g}/line/{l}/nodes and .../virtualNodes',
    'GET/POST/DELETE/PATCH client/zone/{zoneID}/group/{g}/line/{l}/nodes, virtualNodes',
  ],
  // "DELETE; POST/PUT extraTrafficPlan": DELETE of the list just named; the singular beside it.
  [
    'GET client/extraTrafficPlans; DELETE; POST/PUT extraTrafficPlan; GET client/traffic/monthlyUsages',
    'GET, DELETE client/extraTrafficPlans; POST/PUT client/extraTrafficPlan; GET client/traffic/monthlyUsages',
  ],
  // Of client/setting's list only dns has its methods written; the rest say none (inexact, below).
  [
    'client/setting: dns (GET/POST/DELETE), dns/test, dns/unprocessed, dns/recovery, dns/cnames, dns/cname, cname/meta, errorPages, frequency, email and email/test, tg and tg/test, nginx http/stream/worker/custom.',
    'client/setting/dns (GET, POST, DELETE)',
  ],
  // "POST domains/export (ids); the file name comes from a response header": the second clause is no call.
  ['POST domains/export (ids); the file name comes from a response header', 'POST domains/export'],
  // The sentence after the statistics calls is prose; the calls are the five names.
  [
    'POST user/statistics/info, list, timeSeries, top, list/export (CSV). Card, top-list, time-series, log table and CSV export calls are shared; their request fields are listed in the entities section.',
    'POST user/statistics/info, list, timeSeries, top, list/export',
  ],
  // Auth groups: settingExists and metaGroups are reads (no method written; GET as every meta list).
  ['settingExists; metaGroups (type)', 'settingExists, metaGroups GET'],
]);

/** Lines that name no exact call, with the reason (printed by --inexact). Matched by their start. */
export const INEXACT = [
  ['GET zone nodes and metaNodes', 'the zone node paths are named in words'],
  ['Sub-nodes:', '".../node/{id}" continues the zone node path, named in words'],
  ['POST zone node reboot', 'named in words'],
  ['DELETE node currentCache', 'named in words'],
  ['PATCH node monitor', 'named in words'],
  ['POST nodes log rotate', 'named in words'],
  ['firewall GET;', 'zone settings: the zone path is not written'],
  ['http2 PUT', 'zone settings: the zone path is not written'],
  ['anticc PUT', 'zone settings: the zone path is not written'],
  ['ports GET/POST/DELETE; PUT port', 'zone settings: the zone path is not written'],
  ['preheatCaches GET', 'zone settings: the zone path is not written'],
  ['invalidDomainLimitCount', 'zone settings: the zone path is not written'],
  ['nginx enable GET', 'zone settings: the zone path is not written'],
  ['client/monitor nodes', 'methods not shown'],
  ['System settings for:', 'methods not shown'],
  ['Some system settings calls', 'no call'],
];

/** Table rows whose methods and paths do not pair as a cross product, with the pairing the spec gives. */
export const TABLE_REWRITES = new Map([
  // "GET, POST, DELETE | apiTokens, apiToken": part two pairs them ("apiTokens GET/DELETE; apiToken POST").
  ['GET, POST, DELETE|apiTokens, apiToken', ['GET apiTokens', 'DELETE apiTokens', 'POST apiToken']],
]);

const isAbsolute = (p) => TIERS.includes(p.split('/')[0]) || p.startsWith('{auth}');
const dirname = (p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (a, b) => (a ? `${a}/${b}` : b);

/**
 * `.../rest`, read within the current section: the base of the most recent path holding rest's first
 * segment (`.../outcomes/ips/tops` after `user/statistics/network/outcomes/sumBits`), else the latest
 * path's parent (`.../metaGroups` after `client/zone/{zoneID}/groups`).
 */
function resolveDots(rest, recent) {
  const first = rest.split('/')[0];
  for (let i = recent.length - 1; i >= 0; i--) {
    const segs = recent[i].split('/');
    const at = segs.lastIndexOf(first);
    if (at >= 0) return join(segs.slice(0, at).join('/'), rest);
  }
  const last = recent.at(-1);
  if (last === undefined) throw new Error(`".../${rest}" with no path before it`);
  return join(dirname(last), rest);
}

function methodsOf(text) {
  return text.split(/\s*(?:,|\/|and|;)\s*/).filter((w) => /^[A-Z]+$/.test(w) && new RegExp(`^${M}$`).test(w));
}

/** Paths of a clause's path part: `a/b and c`, `a/b, c, d/e`; later names are siblings of the first. */
function resolvePaths(text, base, recent) {
  const pieces = text.split(/\s*,\s*|\s+and\s+/).filter(Boolean);
  const out = [];
  for (const [i, piece] of pieces.entries()) {
    if (!PATH_RE.test(piece)) throw new Error(`not a path: "${piece}" in "${text}"`);
    let p;
    if (piece.startsWith('.../')) p = resolveDots(piece.slice(4), recent);
    else if (isAbsolute(piece)) p = piece;
    else if (i === 0) p = join(base, piece);
    else p = join(dirname(out[0]), piece);
    out.push(p);
    recent.push(p);
  }
  return out;
}

/** The calls of one bullet line of section 7. */
export function bulletCalls(line, ctx) {
  let text = REWRITES.get(line) ?? line;
  text = text.replace(/^[A-Z][\w -]*:\s+/, '');
  text = text.replace(/\s*\(([^()]*)\)/g, (_, inner) =>
    METHOD_PAREN_RE.test(inner.trim()) ? ` @${methodsOf(inner).join('+')}` : '',
  );
  const clauses = text.includes('@')
    ? text.split(/(?<=@[A-Z+]+)\s*,\s*|;\s*/)
    : text.split(/;\s*|(?<=[a-z0-9}])\s*,\s*(?=(?:GET|POST|PUT|PATCH|DELETE)\b)/);
  const calls = [];
  let previous;
  for (let clause of clauses) {
    clause = clause.trim().replace(/\.$/, '');
    if (!clause) continue;
    let methods;
    let pathPart;
    const marker = clause.match(/^(.*?)\s*@([A-Z+]+)$/);
    const lead = clause.match(METHODS_RE);
    const trail = clause.match(new RegExp(`^(.+?)\\s*:?\\s+(${M}(?:\\s*(?:,|/|and)\\s*${M})*)$`));
    if (marker) [, pathPart, methods] = [null, marker[1], marker[2].split('+')];
    else if (lead) [methods, pathPart] = [methodsOf(lead[0]), clause.slice(lead[0].length).trim()];
    else if (trail) [pathPart, methods] = [trail[1], methodsOf(trail[2])];
    else if (ctx.defaultMethod) [methods, pathPart] = [[ctx.defaultMethod], clause];
    else throw new Error(`no method in "${clause}" of "${line}"`);
    let paths;
    if (pathPart === '' || pathPart.startsWith('the same')) {
      if (!previous) throw new Error(`"the same" with no path before it in "${line}"`);
      paths = previous;
    } else paths = resolvePaths(pathPart, ctx.base, ctx.recent);
    previous = paths;
    for (const p of paths) for (const m of methods) calls.push(`${m} ${p}`);
  }
  return calls;
}

/** The calls of one table row (`| methods | paths | payload |`): methods × paths. */
export function rowCalls(methodsCell, pathsCell, ctx) {
  const fixed = TABLE_REWRITES.get(`${methodsCell}|${pathsCell}`);
  if (fixed) return fixed;
  const methods = methodsOf(methodsCell);
  const paths = [];
  for (const group of pathsCell.split(/\s*;\s*/)) paths.push(...resolvePaths(group, '', ctx.recent));
  return paths.flatMap((p) => methods.map((m) => `${m} ${p}`));
}

/** Every call of section 7 of one spec document, before expansion. */
export function documentCalls(markdown, inexact = []) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^## 7\./.test(l));
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (start < 0) throw new Error('no section 7 (the calls) in the document');
  const ctx = { base: '', defaultMethod: null, recent: [] };
  const calls = [];
  for (const raw of lines.slice(start + 1, end < 0 ? undefined : end)) {
    const line = raw.trim();
    if (line.startsWith('### ')) {
      ctx.base = line.match(/\(under ([^)]+?)\/?\)/)?.[1] ?? '';
      ctx.defaultMethod = line.match(new RegExp(`\\(all (${M})\\b`))?.[1] ?? null;
      ctx.recent = [];
      continue;
    }
    const row = line.match(/^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|.*\|$/);
    if (row && new RegExp(`^${M}`).test(row[1])) calls.push(...rowCalls(row[1], row[2], ctx));
    if (!line.startsWith('- ')) continue;
    const bullet = line.slice(2);
    const skip = INEXACT.find(([prefix]) => bullet.startsWith(prefix));
    if (skip) {
      inexact.push(`${bullet}  (${skip[1]})`);
      continue;
    }
    calls.push(...bulletCalls(bullet, ctx));
  }
  return calls;
}

/** `{auth}` to each tier, `{a|b}` to each name, parameters to `{}`. */
export function expand(call) {
  const [method, p] = call.split(' ');
  let paths = p.includes('{auth}') ? TIERS.map((t) => p.replaceAll('{auth}', t)) : [p];
  paths = paths.flatMap((q) => {
    const alt = q.match(/\{(\w+(?:\|\w+)+)\}/);
    return alt ? alt[1].split('|').map((name) => q.replace(alt[0], name)) : [q];
  });
  return paths.map((q) => `${method} ${q.replace(/\{\w+\}/g, '{}')}`);
}

/** The sorted, de-duplicated list of the documents' calls. */
export function specCalls(documents, inexact = []) {
  const all = documents.flatMap((d) => documentCalls(d, inexact)).flatMap(expand);
  return [...new Set(all)].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? path.resolve(root, '../shared/spec');
  const docs = ['console-spec-part1.md', 'console-spec-part2.md'].map((f) => readFileSync(path.join(dir, f), 'utf8'));
  const inexact = [];
  const calls = specCalls(docs, inexact);
  process.stdout.write(`${calls.join('\n')}\n`);
  if (process.argv.includes('--inexact')) process.stderr.write(`${inexact.join('\n')}\n`);
}
