#!/usr/bin/env node
// The structure checks of the lint step: no source file over 400 lines, no document over 500, no
// import circle, no two
// server modules importing each other, no console import from below up to a page, no SQL outside
// repositories and stores. What was over on the
// day the checks came is listed below with its size then: a listed file may shrink, not grow, and
// leaves the list once it is within the rule (the check says so), so each list only shrinks.
//
//   node scripts/check-structure.mjs            all checks on this repository
//   node scripts/check-structure.mjs sizes sql  only those (sizes, docs, imports, sql, caller)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 400;
/** A document (any Markdown file of the repository) is read by people: at most this many lines. */
export const MAX_DOC_LINES = 500;

/** Files over MAX_LINES and their line counts: each may not grow, and leaves once within 400. */
export const SIZE_DEBT = {};

/**
 * Import circles found on the day the check came, each as its files joined by ' > ' from the one
 * that sorts first (the order madge walks them in). They are to be broken, not to be added to.
 */
export const CIRCLE_DEBT = [];

/** Pairs of server modules that import each other, 'a <> b' with a before b. */
export const MODULE_PAIR_DEBT = [];

/**
 * Console imports from a lower floor up to the pages ('from > to'): the features, components,
 * forms, session, API and i18n code serve the pages and never import one.
 */
export const CONSOLE_UPWARD_DEBT = [];

/** Files outside repositories and stores that write SQL, and how many SQL texts each holds. */
export const SQL_DEBT = {};

/** The source trees the checks read, relative to the repository's root. */
const SOURCE_ROOTS = ['apps', 'packages', 'scripts', 'bench'];
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|lua)$/;
/** Tests, the schema, the language catalogues and declarations are not held to the size. */
const SIZE_EXEMPT = [
  /\.(test|spec)\.[a-z]+$/,
  /(^|\/)(test|tests|e2e|fixtures)\//,
  /(^|\/)schema\.ts$/,
  /^apps\/console\/src\/i18n\/resources\//,
  /\.d\.ts$/,
];
/**
 * Where SQL belongs: repositories, stores (and the analytics store's folder of typed reads), the
 * database platform and migrations.
 */
const SQL_HOMES = [
  /\.repository\.ts$/,
  /[-.]store\.ts$/,
  /^apps\/server\/src\/modules\/analytics\/store\//,
  /^apps\/server\/src\/platform\/db\//,
  /(^|\/)migrations?\//,
  /(^|\/)drizzle\//,
];
/** The code trees whose imports are walked, with the tsconfig that resolves them. */
const IMPORT_ROOTS = ['apps/server/src', 'apps/console/src', 'apps/edge/src', 'packages/contract/src'];

/** Every source file under the roots, as a path from `root` with forward slashes. */
export function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(file);
      else if (SOURCE_FILE.test(entry.name)) out.push(file);
    }
  };
  for (const dir of SOURCE_ROOTS) walk(dir);
  return out.sort();
}

function lineCount(text) {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** (a) sizes: `counts` maps each file to its lines. Returns what is wrong, one line each. */
export function sizeProblems(counts, debt = SIZE_DEBT) {
  const problems = [];
  for (const [file, lines] of Object.entries(counts)) {
    if (SIZE_EXEMPT.some((re) => re.test(file))) continue;
    const allowed = debt[file];
    if (allowed === undefined && lines > MAX_LINES) {
      problems.push(`${file}: ${lines} lines, over ${MAX_LINES}: split it along its seams`);
    } else if (allowed !== undefined && lines > allowed) {
      problems.push(`${file}: ${lines} lines, grew past its listed ${allowed}: split it rather than grow it`);
    }
  }
  for (const [file, allowed] of Object.entries(debt)) {
    const lines = counts[file];
    if (lines === undefined) problems.push(`${file}: listed in SIZE_DEBT but gone: remove it from the list`);
    else if (lines <= MAX_LINES) {
      problems.push(`${file}: ${lines} lines now, within ${MAX_LINES}: remove it from SIZE_DEBT`);
    } else if (lines < allowed) {
      problems.push(`${file}: ${lines} lines now: lower its SIZE_DEBT entry from ${allowed} to ${lines}`);
    }
  }
  return problems;
}

/** Every Markdown file under `root`, outside dependencies, builds and test output. */
export function docFiles(root) {
  const out = [];
  const skip = new Set(['node_modules', '.git', 'dist', 'test-results', 'playwright-report']);
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.md')) out.push(file);
    }
  };
  walk('');
  return out.sort();
}

/** (a') documents: `counts` maps each Markdown file to its lines. */
export function docProblems(counts) {
  return Object.entries(counts)
    .filter(([, lines]) => lines > MAX_DOC_LINES)
    .map(
      ([file, lines]) =>
        `${file}: ${lines} lines, over ${MAX_DOC_LINES}: keep what is and the latest figure, split by audience`,
    );
}

/** A circle written from its alphabetically first file, so a circle has one spelling. */
export function circleKey(files) {
  let start = 0;
  for (let i = 1; i < files.length; i++) if (files[i] < files[start]) start = i;
  return [...files.slice(start), ...files.slice(0, start)].join(' > ');
}

/** (b) circles: each circle as its files in order. */
export function circleProblems(circles, debt = CIRCLE_DEBT) {
  const found = new Set(circles.map(circleKey));
  const problems = [];
  for (const key of found) if (!debt.includes(key)) problems.push(`import circle: ${key}`);
  for (const key of debt) {
    if (!found.has(key)) problems.push(`import circle gone: remove it from CIRCLE_DEBT: ${key}`);
  }
  return problems;
}

/** The server module a file belongs to, if any. */
function serverModule(file) {
  return /^apps\/server\/src\/modules\/([^/]+)\//.exec(file)?.[1];
}

/** Pairs of server modules that import each other, from a graph of file → files it imports. */
export function modulePairs(graph) {
  const edges = new Set();
  for (const [from, tos] of Object.entries(graph)) {
    const a = serverModule(from);
    if (!a) continue;
    for (const to of tos) {
      const b = serverModule(to);
      if (b && b !== a) edges.add(`${a}>${b}`);
    }
  }
  const pairs = new Set();
  for (const edge of edges) {
    const [a, b] = edge.split('>');
    if (edges.has(`${b}>${a}`)) pairs.add(a < b ? `${a} <> ${b}` : `${b} <> ${a}`);
  }
  return [...pairs].sort();
}

const CONSOLE_LOWER = /^apps\/console\/src\/(features|components|forms|session|api|i18n)\//;
const CONSOLE_PAGES = /^apps\/console\/src\/pages\//;

/** Console imports that point up from a lower floor to a page, as 'from > to'. */
export function consoleUpward(graph) {
  const out = [];
  for (const [from, tos] of Object.entries(graph)) {
    if (!CONSOLE_LOWER.test(from)) continue;
    for (const to of tos) if (CONSOLE_PAGES.test(to)) out.push(`${from} > ${to}`);
  }
  return out.sort();
}

export function consoleUpwardProblems(found, debt = CONSOLE_UPWARD_DEBT) {
  const problems = [];
  for (const edge of found) if (!debt.includes(edge)) problems.push(`console import up to a page: ${edge}`);
  for (const edge of debt) {
    if (!found.includes(edge)) problems.push(`console import gone: remove it from CONSOLE_UPWARD_DEBT: ${edge}`);
  }
  return problems;
}

export function modulePairProblems(pairs, debt = MODULE_PAIR_DEBT) {
  const problems = [];
  for (const pair of pairs) if (!debt.includes(pair)) problems.push(`server modules import each other: ${pair}`);
  for (const pair of debt) {
    if (!pairs.includes(pair))
      problems.push(`modules no longer import each other: remove from MODULE_PAIR_DEBT: ${pair}`);
  }
  return problems;
}

/**
 * SQL texts in a file: drizzle's `sql` tag and `sql.raw`, a statement's opening words in capitals
 * (SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, CREATE/ALTER/DROP …), or a string of SQL
 * handed straight to `.query(`/`.execute(`. Textual and conservative: it counts, it does not parse.
 */
const SQL_TEXT = new RegExp(
  [
    /\bsql`/,
    /\bsql\.raw\(/,
    /\bSELECT\b[^;`'"]{0,400}?\bFROM\b/,
    /\bINSERT\s+INTO\b/,
    /\bUPDATE\s+[a-z_"]+\s+SET\b/,
    /\bDELETE\s+FROM\b/,
    /\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|VIEW|DATABASE|MATERIALIZED)\b/,
    /\bTRUNCATE\s+(?:TABLE\s+)?[a-z_"]/,
    /\.(?:query|execute)\(\s*[`'"]\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b/,
  ]
    .map((re) => re.source)
    .join('|'),
  'g',
);

export function sqlCount(text) {
  return text.match(SQL_TEXT)?.length ?? 0;
}

/** Whether a file is held to the SQL rule: code, not tests, not a repository or store. */
export function sqlHeld(file) {
  if (!/^(apps\/[^/]+\/src|packages\/[^/]+\/src)\//.test(file) || !/\.(ts|tsx|mts|mjs)$/.test(file)) return false;
  if (/\.(test|spec)\.[a-z]+$/.test(file) || /(^|\/)(test|tests)\//.test(file)) return false;
  return !SQL_HOMES.some((re) => re.test(file));
}

/** (c) SQL: `counts` maps each held file to its SQL texts. */
export function sqlProblems(counts, debt = SQL_DEBT) {
  const problems = [];
  for (const [file, n] of Object.entries(counts)) {
    const allowed = debt[file] ?? 0;
    if (n > allowed) {
      problems.push(
        `${file}: ${n} SQL text(s) outside a repository or store${allowed ? ` (listed ${allowed})` : ''}: move them into a *.repository.ts`,
      );
    }
  }
  for (const [file, allowed] of Object.entries(debt)) {
    const n = counts[file] ?? 0;
    if (n === 0) problems.push(`${file}: no SQL left: remove it from SQL_DEBT`);
    else if (n < allowed)
      problems.push(`${file}: ${n} SQL text(s) now: lower its SQL_DEBT entry from ${allowed} to ${n}`);
  }
  return problems;
}

/**
 * A server route passes its service a plain id (`caller.operatorId`, `caller.accountId`) or the
 * whole caller, never a scope assembled from caller fields (docs/decisions "One rule for passing
 * the caller"): an object property taken from the caller (`{ operatorId: caller.operatorId }`), the
 * caller destructured (`const { operatorId, zoneScope } = caller`) or spread (`{ ...caller }`), or
 * `caller.zoneScope` / `caller.account` read in the route. Each such text in a route file is one problem.
 */
const CALLER_SCOPE = /\b\w+\s*:\s*caller\.\w+|\bcaller\.(?:zoneScope|account)\b|\}\s*=\s*caller\b|\.\.\.caller\b/g;

export function callerScopes(text) {
  return [...text.matchAll(CALLER_SCOPE)].map((m) => `${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
}

/** Whether a file is held to the caller rule: the server's route files. */
export function callerHeld(file) {
  return /^apps\/server\/src\/.*\.routes\.ts$/.test(file);
}

/** The import graph of the code trees (type imports count: they are a dependency too), via madge. */
export async function importGraph(root, roots = IMPORT_ROOTS) {
  const { default: madge } = await import('madge');
  const graph = {};
  const circles = [];
  for (const dir of roots) {
    const base = path.join(root, dir);
    const tsConfig = path.join(base, '..', 'tsconfig.json');
    let config;
    try {
      readFileSync(tsConfig);
      config = tsConfig;
    } catch {
      config = undefined;
    }
    const result = await madge(base, {
      fileExtensions: ['ts', 'tsx', 'mts'],
      excludeRegExp: [/\.test\.tsx?$/, /(^|\/)test\//],
      ...(config ? { tsConfig: config } : {}),
    });
    for (const [file, deps] of Object.entries(result.obj())) graph[`${dir}/${file}`] = deps.map((d) => `${dir}/${d}`);
    for (const circle of result.circular()) circles.push(circle.map((f) => `${dir}/${f}`));
  }
  return { graph, circles };
}

/** Every check on the tree at `root`; returns the problems found. */
export async function check(root, which = ['sizes', 'docs', 'imports', 'sql', 'caller'], debt = {}) {
  const problems = [];
  const files = sourceFiles(root);
  if (which.includes('docs')) {
    const counts = {};
    for (const file of docFiles(root)) counts[file] = lineCount(readFileSync(path.join(root, file), 'utf8'));
    problems.push(...docProblems(counts));
  }
  if (which.includes('sizes')) {
    const counts = {};
    for (const file of files) counts[file] = lineCount(readFileSync(path.join(root, file), 'utf8'));
    problems.push(...sizeProblems(counts, debt.sizes ?? SIZE_DEBT));
  }
  if (which.includes('sql')) {
    const counts = {};
    for (const file of files.filter(sqlHeld)) {
      const n = sqlCount(readFileSync(path.join(root, file), 'utf8'));
      if (n > 0) counts[file] = n;
    }
    problems.push(...sqlProblems(counts, debt.sql ?? SQL_DEBT));
  }
  if (which.includes('caller')) {
    for (const file of files.filter(callerHeld)) {
      for (const found of callerScopes(readFileSync(path.join(root, file), 'utf8'))) {
        problems.push(
          `${file}:${found}: a route builds a scope from caller fields: pass the plain id or the whole caller`,
        );
      }
    }
  }
  if (which.includes('imports')) {
    const { graph, circles } = await importGraph(root, debt.importRoots ?? IMPORT_ROOTS);
    problems.push(...circleProblems(circles, debt.circles ?? CIRCLE_DEBT));
    problems.push(...modulePairProblems(modulePairs(graph), debt.modulePairs ?? MODULE_PAIR_DEBT));
    problems.push(...consoleUpwardProblems(consoleUpward(graph), debt.consoleUpward ?? CONSOLE_UPWARD_DEBT));
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const asked = process.argv.slice(2);
  const started = Date.now();
  const problems = await check(root, asked.length > 0 ? asked : undefined);
  for (const problem of problems) console.error(`structure: ${problem}`);
  const took = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`structure: ${problems.length} problem(s) (${took} s)`);
    process.exit(1);
  }
  console.log(`structure: sizes, documents, imports, SQL and the routes' callers hold (${took} s)`);
}
