// The spec-call reader holds each form the console spec writes its calls in (small inline samples;
// the spec itself lies outside the repository).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentCalls, expand, specCalls } from './spec-calls.mjs';

/** A document whose section 7 holds `body`. */
const doc = (body) =>
  `# Spec\n\n## 6. Before\n\n- GET not/a/call\n\n## 7. Calls\n\n${body}\n\n## 8. After\n\n- GET not/a/call/either\n`;
const calls = (body) => specCalls([doc(body)]);

test('table rows: methods × paths, {auth} to each tier, siblings after a comma, absolute paths after a semicolon', () => {
  assert.deepEqual(
    calls('| Method | Path | Payload |\n|---|---|---|\n| GET, PUT | {auth}/account/self | not shown |'),
    [
      'GET admin/account/self',
      'GET client/account/self',
      'GET user/account/self',
      'PUT admin/account/self',
      'PUT client/account/self',
      'PUT user/account/self',
    ],
  );
  assert.deepEqual(
    calls('| POST | {auth}/login2fa/phase0, phase1 | x |').filter((c) => c.includes('user')),
    ['POST user/login2fa/phase0', 'POST user/login2fa/phase1'],
  );
  assert.deepEqual(calls('| PUT | offline/license; offline/license/updateKey | key as query |'), [
    'PUT offline/license',
    'PUT offline/license/updateKey',
  ]);
  assert.deepEqual(calls('| DELETE | {auth} | tokens |'), ['DELETE admin', 'DELETE client', 'DELETE user']);
  // The one row whose methods do not pair with every path: paired as part two writes it.
  assert.deepEqual(calls('| GET, POST, DELETE | apiTokens, apiToken | not shown |'), [
    'DELETE apiTokens',
    'GET apiTokens',
    'POST apiToken',
  ]);
});

test('prose: methods first, clauses by semicolon, parentheses dropped, "the same", a comma before a method', () => {
  assert.deepEqual(
    calls('- GET admin/license (page, pageSize); POST, PUT, DELETE admin/license; POST admin/license/issuing'),
    [
      'DELETE admin/license',
      'GET admin/license',
      'POST admin/license',
      'POST admin/license/issuing',
      'PUT admin/license',
    ],
  );
  assert.deepEqual(calls('- GET admin/license/{userId}/order; PUT the same with licenseSetting'), [
    'GET admin/license/{}/order',
    'PUT admin/license/{}/order',
  ]);
  assert.deepEqual(calls('- GET and PUT user/site/tags, PUT user/site/{siteId}/tags'), [
    'GET user/site/tags',
    'PUT user/site/tags',
    'PUT user/site/{}/tags',
  ]);
  assert.deepEqual(calls('- POST, PUT and DELETE (body ids) user/logPush/events'), [
    'DELETE user/logPush/events',
    'POST user/logPush/events',
    'PUT user/logPush/events',
  ]);
  assert.deepEqual(calls('- GET and PUT client/dashboard (PUT body is the layout; PUT toast may be hidden)'), [
    'GET client/dashboard',
    'PUT client/dashboard',
  ]);
});

test('siblings: "a/b and c", "a/b, c, d/e"', () => {
  assert.deepEqual(calls('- PATCH user/domain/setting/balance and forceSSL'), [
    'PATCH user/domain/setting/balance',
    'PATCH user/domain/setting/forceSSL',
  ]);
  assert.deepEqual(calls('- POST user/statistics/info, list, list/export (CSV)'), [
    'POST user/statistics/info',
    'POST user/statistics/list',
    'POST user/statistics/list/export',
  ]);
  assert.deepEqual(calls('- POST user/domains/meta and user/domains/tags'), [
    'POST user/domains/meta',
    'POST user/domains/tags',
  ]);
});

test('a heading\'s "(under base/)" and "(all METHOD"', () => {
  const under =
    '### Domains (under user/site/{siteId}/)\n- GET domains (page); PUT domain/{domainId}/scheme; POST user/domains/meta';
  assert.deepEqual(calls(under), [
    'GET user/site/{}/domains',
    'POST user/domains/meta',
    'PUT user/site/{}/domain/{}/scheme',
  ]);
  const all = '### Attacks (all POST, body holds a range)\n- user/net/outcomes/avgBitRate and sumBits';
  assert.deepEqual(calls(all), ['POST user/net/outcomes/avgBitRate', 'POST user/net/outcomes/sumBits']);
  // A heading ends the one before: no base, no method carried over.
  assert.throws(() => calls(`${all}\n### Next\n- user/x/y`), /no method/);
});

test('".../rest": from the latest path holding its first segment, else beside the latest path', () => {
  const body = [
    '### Zones',
    '- GET client/zone/{zoneID}/groups; GET .../metaGroups (portType); POST/PATCH .../group',
    '- GET .../group/{g}/lines/nodeNums',
    '- POST .../outcomes/x',
  ].join('\n');
  assert.deepEqual(calls(body), [
    'GET client/zone/{}/group/{}/lines/nodeNums',
    'GET client/zone/{}/groups',
    'GET client/zone/{}/metaGroups',
    'PATCH client/zone/{}/group',
    'POST client/zone/{}/group',
    'POST client/zone/{}/group/{}/lines/outcomes/x',
  ]);
  assert.throws(() => calls('### New\n- GET .../x'), /with no path before it/);
});

test('paths first: "rules GET", "luaAcls: GET (…), POST (…)", "a, b, c: GET", "path (METHODS), path (METHOD)"', () => {
  const body = [
    '### Lua (under user/site/{siteID}/module/)',
    '- luaAcls: GET (page, pageSize), POST (body modules), DELETE (body ids)',
    '- tokenAuths GET/POST (modules)/DELETE (ids); tokenAuth PUT',
    '- group/{groupID}/basicAuths, keyAuths: GET (page), DELETE (ids)',
    '- ports (GET, POST), port (PUT), port/batchCreate (POST)',
  ].join('\n');
  const prefix = 'user/site/{}/module/';
  assert.deepEqual(
    calls(body),
    [
      'DELETE group/{}/basicAuths',
      'DELETE group/{}/keyAuths',
      'DELETE luaAcls',
      'DELETE tokenAuths',
      'GET group/{}/basicAuths',
      'GET group/{}/keyAuths',
      'GET luaAcls',
      'GET ports',
      'GET tokenAuths',
      'POST luaAcls',
      'POST port/batchCreate',
      'POST ports',
      'POST tokenAuths',
      'PUT port',
      'PUT tokenAuth',
    ]
      .map((c) => c.replace(' ', ` ${prefix}`))
      .sort(),
  );
});

test('a method without a path is the path before it; {a|b} is each name', () => {
  assert.deepEqual(calls('- GET user/site/{siteID}/module/wafs (page); POST (create)'), [
    'GET user/site/{}/module/wafs',
    'POST user/site/{}/module/wafs',
  ]);
  assert.deepEqual(expand('PUT user/site/{siteId}/domains/module/{cors|waf}'), [
    'PUT user/site/{}/domains/module/cors',
    'PUT user/site/{}/domains/module/waf',
  ]);
});

test('lines without an exact call are left out and reported; a line read no way is an error', () => {
  const inexact = [];
  const body =
    '- client/monitor nodes, node (methods not shown)\n- GET zone nodes and metaNodes; PATCH/DELETE zone node\n- GET user/x';
  assert.deepEqual(documentCalls(doc(body), inexact), ['GET user/x']);
  assert.equal(inexact.length, 2);
  assert.throws(() => calls('- GET some words here'), /not a path/);
  assert.throws(() => calls('- the file name comes from a header'), /no method/);
});

test('the list is sorted and without repeats', () => {
  assert.deepEqual(calls('- GET user/b; GET user/a\n- GET user/b'), ['GET user/a', 'GET user/b']);
});
