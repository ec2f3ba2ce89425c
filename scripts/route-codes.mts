/**
 * The catalogue codes each route's handler can reach, found statically, compared with the route's
 * declaration (`codes` in packages/contract/src/routes, plus the codes its access kind implies).
 *
 * For every `binder.bind(route, handler)` in apps/server/src it walks the handler and every function
 * the type checker resolves a call to (in apps/server/src), collecting the numbers that are
 * catalogue codes (`new AppError(201002)`, `{ code: 203001 }` of a batch error). It over-approximates:
 * a code on a path no input reaches is still found. The test suite checks the other direction (a code
 * a test reaches must be declared: `strictRouteCodes` in the test app).
 *
 *   npx tsx scripts/route-codes.mts               lists reachable codes a route does not declare (exit 1 if any)
 *   npx tsx scripts/route-codes.mts --json FILE   also writes { routeId: [codes] } of what it found
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const contract = await import(path.join(root, 'packages/contract/src/index.ts'));
const CODES = new Set<number>(contract.ERROR_CODES as number[]);
const ALL = contract.ALL_ROUTES as { id: string }[];

// export name / group key → route ids
const byName = new Map<string, Set<string>>();
const addName = (name: string, id: string) => {
  if (!byName.has(name)) byName.set(name, new Set());
  byName.get(name)?.add(id);
};
const isRoute = (v: unknown): v is { id: string } =>
  typeof v === 'object' && v !== null && 'id' in v && 'method' in v && 'path' in v;
for (const [name, value] of Object.entries(contract)) {
  if (isRoute(value)) addName(name, value.id);
}
for (const group of Object.values(contract.ROUTE_GROUPS as Record<string, Record<string, unknown>>)) {
  for (const [key, value] of Object.entries(group)) if (isRoute(value)) addName(key, value.id);
}

const configPath = path.join(root, 'apps/server/tsconfig.json');
const cfg = ts.readConfigFile(configPath, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, path.dirname(configPath));
const program = ts.createProgram(
  parsed.fileNames.filter((f) => f.includes('/apps/server/src/')),
  parsed.options,
);
const checker = program.getTypeChecker();
const serverSrc = path.join(root, 'apps/server/src') + path.sep;

const memo = new Map<ts.Node, Set<number>>();
function codesOf(node: ts.Node, stack: Set<ts.Node>): Set<number> {
  const cached = memo.get(node);
  if (cached) return cached;
  if (stack.has(node)) return new Set();
  stack.add(node);
  const out = new Set<number>();
  const visit = (n: ts.Node) => {
    if (ts.isNumericLiteral(n)) {
      const v = Number(n.text);
      if (CODES.has(v)) out.add(v);
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      for (const decl of targets(n)) for (const c of codesOf(decl, stack)) out.add(c);
    }
    ts.forEachChild(n, visit);
  };
  const body = (node as ts.FunctionLikeDeclaration).body ?? node;
  visit(body);
  stack.delete(node);
  memo.set(node, out);
  return out;
}

function inServer(decl: ts.Node): boolean {
  return decl.getSourceFile().fileName.startsWith(serverSrc);
}

function targets(call: ts.CallExpression | ts.NewExpression): ts.Node[] {
  const out: ts.Node[] = [];
  const sig = checker.getResolvedSignature(call);
  const decl = sig?.declaration;
  if (decl && !ts.isJSDocSignature(decl) && inServer(decl) && (decl as ts.FunctionLikeDeclaration).body) {
    out.push(decl);
  }
  // a function-valued const (arrow) called by name
  if (!decl && ts.isCallExpression(call)) {
    const sym = checker.getSymbolAtLocation(call.expression);
    for (const d of sym?.declarations ?? []) {
      if (ts.isVariableDeclaration(d) && d.initializer && inServer(d) && ts.isFunctionLike(d.initializer)) {
        out.push(d.initializer);
      }
    }
  }
  return out;
}

// Bind calls whose route argument is not a unique exported name: which ids each covers.
const MANY = '(customHeaders|corsSettings|urlRedirects|proxyRewrites)';
const ONE = '(customHeader|corsSetting|urlRedirect|proxyRewrite)';
const SECTION = '(worker|http|stream|custom)';
const KINDS =
  '(whitelists|blacklists|userAgents|headers|intervalLimits|secondLimits|antiCCs|geos|l4Whitelists|l4Blacklists|positions|limitConns)';
const KIND =
  '(whitelist|blacklist|userAgent|header|intervalLimit|secondLimit|antiCC|geo|l4Whitelist|l4Blacklist|position|limitConn)';
const MANUAL_LIST: [RegExp, RegExp, (m: RegExpMatchArray) => RegExp][] = [
  [/operator-nginx/, /^r\.(\w+)\.get$/, (m) => new RegExp(`^client\\.setting\\.nginx\\.${m[1]}$`)],
  [/operator-nginx/, /^r\.(\w+)\.(put|delete)$/, (m) => new RegExp(`^client\\.setting\\.nginx\\.${m[1]}\\.${m[2]}$`)],
  [/zone-settings/, /^r\.get$/, () => new RegExp(`^client\\.zone\\.nginx\\.${SECTION}$`)],
  [/zone-settings/, /^r\.(put|delete)$/, (m) => new RegExp(`^client\\.zone\\.nginx\\.${SECTION}\\.${m[1]}$`)],
  [/site-modules/, /^r\.(list|create|delete)$/, (m) => new RegExp(`^user\\.site\\.${MANY}\\.${m[1]}$`)],
  [/site-modules/, /^r\.update$/, () => new RegExp(`^user\\.site\\.${ONE}\\.update$`)],
  [
    /site-modules/,
    /^r\.(listRules|addRules|deleteRules)$/,
    (m) =>
      new RegExp(
        `^user\\.site\\.(urlRedirect|proxyRewrite)\\.rules\\.${m[1]?.replace('Rules', '').replace('listR', 'list')}$`,
      ),
  ],
  [/site-modules/, /^r\.updateRule$/, () => /^user\.site\.(urlRedirect|proxyRewrite)\.rule\.update$/],
  [/site-modules/, /^bindModuleRoutes\[type\]$/, () => /^user\.domains\.module\./],
  // One binding for every site firewall kind, layer 7 and layer 4 (contract rule-kinds/site-firewall*.ts).
  [
    /firewall-rules\.routes/,
    /^routes\.(list|add|delete)$/,
    (m) => new RegExp(`^user\\.site\\.firewall\\.${KINDS}\\.${m[1]}$`),
  ],
  [/firewall-rules\.routes/, /^routes\.update$/, () => new RegExp(`^user\\.site\\.firewall\\.${KIND}\\.update$`)],
];
const MANUAL = new Proxy({} as Record<string, RegExp | undefined>, {
  get(_t, key: string) {
    const [file, text] = key.split(':');
    for (const [f, t, make] of MANUAL_LIST) {
      const m = text?.match(t);
      if (file && f.test(file) && m) return make(m);
    }
    return undefined;
  },
});

const result: Record<string, number[]> = {};
const unresolved: string[] = [];
for (const sf of program.getSourceFiles()) {
  if (!sf.fileName.startsWith(serverSrc)) continue;
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === 'bind' &&
      n.arguments.length === 2
    ) {
      const [routeArg, handler] = n.arguments as unknown as [ts.Expression, ts.Expression];
      const text = routeArg.getText(sf);
      const last = text.split('.').pop() ?? text;
      let ids = byName.get(last);
      if (ids?.size !== 1) {
        const key = `${path.relative(root, sf.fileName)}:${text}`;
        const manual = MANUAL[key];
        if (!manual) {
          unresolved.push(`${key} (${ids ? [...ids].join(',') : 'none'})`);
          ts.forEachChild(n, visit);
          return;
        }
        ids = new Set(ALL.map((r) => r.id).filter((id) => manual.test(id)));
      }
      let fn: ts.Node = handler;
      if (ts.isIdentifier(handler)) {
        const sym = checker.getSymbolAtLocation(handler);
        const d = sym?.declarations?.[0];
        if (d && ts.isVariableDeclaration(d) && d.initializer) fn = d.initializer;
        else if (d) fn = d;
      }
      const codes = codesOf(fn, new Set());
      for (const id of ids) result[id] = [...new Set([...(result[id] ?? []), ...codes])].sort();
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

if (unresolved.length) console.error(`bind calls this script cannot map to routes:\n${unresolved.join('\n')}`);
const missing = ALL.map((r) => r.id).filter((id) => !(id in result));
if (missing.length) console.error(`routes with no bind call found:\n${missing.join('\n')}`);
const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0 && process.argv[jsonAt + 1])
  writeFileSync(process.argv[jsonAt + 1] as string, JSON.stringify(result, null, 1));
const undeclared: string[] = [];
for (const route of contract.ALL_ROUTES as Parameters<typeof contract.routeCodes>[0][] & { id: string }[]) {
  const allowed = contract.routeCodes(route) as ReadonlySet<number>;
  const extra = (result[route.id] ?? []).filter((code) => !allowed.has(code));
  if (extra.length > 0) undeclared.push(`${route.id}: ${extra.join(', ')}`);
}
if (undeclared.length > 0) {
  console.log(`reachable but not declared:\n${undeclared.join('\n')}`);
  process.exitCode = 1;
} else console.log(`${Object.keys(result).length} routes: every reachable code is declared`);
