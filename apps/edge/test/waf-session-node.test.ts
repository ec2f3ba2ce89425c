import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { blocked, passed, type WafPlace, wafSender } from './helpers/waf-send.js';

// Two classes of attack through a real nginx with a default WAF module, each beside the benign
// requests that look like it:
// - session fixation: a server framework's own session cookie name (JSESSIONID, PHPSESSID,
//   laravel_session, connect.sid ...) handed over as a query or form argument or a JSON key from
//   another site's page (or none) — not the analytics beacons' generic "sessionId", sent
//   cross-site by design, and not the same name from the site's own pages;
// - Node.js code probes: the console called, the module loader and the process object reached by
//   index or through require's own properties, React Server Components' "$n:constructor" reference
//   walks — not a stack trace's "at console.error (https://...)" nor a PHP-style "process[step]".

let edge: Edge;
let origin: Origin;
const HOST = 'session.waf.example';
const sender = wafSender(() => edge, HOST);

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(
    document('waf-session-1', [domain(1, HOST, [upstream(origin.port)], { modules: moduleRefs({ waf: 1 }) })], [], [], {
      modules: [wafModule(1)],
    }),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

type Where = 'query' | 'form' | 'json';
function sessionRequest(where: Where, name: string, value: string, referer: string | undefined) {
  const headers: Record<string, string> = {};
  if (referer) headers.referer = referer;
  if (where === 'query') return { method: 'GET', path: `/login?${encodeURIComponent(name)}=${value}`, headers };
  if (where === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return { method: 'POST', path: '/login', headers, body: `user=ann&${encodeURIComponent(name)}=${value}` };
  }
  headers['content-type'] = 'application/json';
  return { method: 'POST', path: '/login', headers, body: JSON.stringify({ user: 'ann', [name]: value }) };
}

const FRAMEWORK_NAMES = ['JSESSIONID', 'PHPSESSID', 'ASP.NET_SessionId', 'laravel_session', 'connect.sid', 'koa:sess'];
const OFF_SITE = 'https://attacker.example/page';

describe('WAF: session fixation', () => {
  it('a framework session name planted from another site (or with no Referer) is blocked in the query, a form and JSON', async () => {
    const wrong: string[] = [];
    for (const where of ['query', 'form', 'json'] as Where[]) {
      for (const name of FRAMEWORK_NAMES) {
        for (const referer of [OFF_SITE, undefined]) {
          const r = await sender.send(sessionRequest(where, name, 'A1B2C3D4E5F6', referer));
          if (!blocked(r)) wrong.push(`${where} ${name} referer=${referer}: ${r.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the same names from the site itself, and generic session ids of beacons sent cross-site, pass', async () => {
    const wrong: string[] = [];
    for (const where of ['query', 'form', 'json'] as Where[]) {
      for (const name of FRAMEWORK_NAMES) {
        for (const referer of [`https://${HOST}/account`, `https://www.${HOST}/`]) {
          const r = await sender.send(sessionRequest(where, name, 'A1B2C3D4E5F6', referer));
          if (!passed(r)) wrong.push(`${where} ${name} referer=${referer}: ${r.status}`);
        }
      }
      for (const name of ['sessionId', 'session_id', 'sid', 'jsessionid_hint', 'my_phpsessid_note']) {
        const r = await sender.send(sessionRequest(where, name, '8d40be1e-afd4-422c', OFF_SITE));
        if (!passed(r)) wrong.push(`${where} ${name}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

// (not the data headers: "(", ")" and ";" are normal there, and the prefilter reads them as spaces)
const PLACES: WafPlace[] = ['query', 'form', 'json', 'multipart', 'cookie'];
const NODE: { attacks: string[]; benign: string[] } = {
  attacks: [
    'console.info(1)',
    'c\\u006fnsole.log(7*7)',
    'console.info.call(this,1)',
    'console . error ( process )',
    'process[req.query.a]',
    'require[req.query.a]',
    "process['mainModule']",
    '#{require.main.constructor._load(foo).readdirSync(foo2)}',
    "{'_prefix':'x//', '_formData':{'get':'$3:constructor:constructor'}}",
    '$7:Module:prototype',
  ],
  benign: [
    'Error: boom\n    at console.error (https://console.example.com/app.js:307:13233)\n    at main (https://cdn.example.com/x.js:1:2)',
    'process[step]',
    'our console logs (info, warn) are kept for 30 days',
    'require a main entry in package.json',
    'price: $3 per month, $7 per year',
  ],
};

describe('WAF: Node.js code probes', () => {
  it(`the probes are blocked and their look-alikes pass, in ${PLACES.join(', ')}`, async () => {
    const wrong: string[] = [];
    for (const place of PLACES) {
      for (const v of NODE.attacks) {
        const r = await sender.sendIn(place, v, 'text');
        if (!blocked(r)) wrong.push(`attack ${place} ${JSON.stringify(v)}: ${r.status}`);
      }
      for (const v of NODE.benign) {
        const r = await sender.sendIn(place, v, 'text');
        if (!passed(r)) wrong.push(`benign ${place} ${JSON.stringify(v)}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
