import type { WafPlace } from '../helpers/waf-send.js';
import type { Material, MaterialCase } from './types.js';

// GraphQL abuse: introspection of the schema, one field asked for under many aliases (batching
// past per-request limits). Sent as the "query" of a JSON body, a query argument and a form field.
// The benign side: ordinary queries and mutations with arguments, fragments and a few aliases.

const aliases = (field: string, args: (i: number) => string, n: number) =>
  `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: ${field}(${args(i)}) { token }`).join(' ')} }`;

const QUERIES: [string, string][] = [
  ['{ __schema { types { name } } }', 'introspection, types'],
  ['query IntrospectionQuery { __schema { queryType { name } mutationType { name } } }', 'introspection query'],
  ['{__schema{queryType{name}}}', 'introspection, no spaces'],
  ['IntrospectionQuery{__schema {queryType { name }}', 'introspection, no operation keyword'],
  ['{ __type(name: "User") { name fields { name type { name } } } }', 'type introspection'],
  ['query { user(id: 1) { name } __schema { directives { name } } }', 'introspection beside a field'],
  [aliases('login', (i) => `user: "admin", password: "guess${i}"`, 20), 'alias batching, password guesses'],
  [aliases('checkCoupon', (i) => `code: "C${1000 + i}"`, 12), 'alias batching, coupon codes'],
  [aliases('sendOtp', () => 'phone: "+15550100"', 10), 'alias batching, OTP'],
  ['query { __schema { types { name fields { name } } } }', 'introspection, fields of every type'],
  ['{ __schema\n{ types { name } } }', 'introspection across a line break'],
  ['query q { __type(name:"Query") { fields { name args { name } } } }', 'type introspection of the root'],
  [`query { ${'user { friends { '.repeat(15)}id${' }'.repeat(30)} }`, 'nesting depth 31 (resource exhaustion)'],
  [
    'query { me @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) @include(if: true) { id } }',
    'directive overloading',
  ],
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'json', name: 'query' },
  { place: 'query', name: 'query' },
  { place: 'form', name: 'query' },
  { place: 'multipart', name: 'operations' },
];

/** Whole bodies: array batching, and injection through the variables (the body as sent). */
const gql = (how: string, body: string): MaterialCase => ({
  place: 'json',
  name: 'query',
  value: body,
  how,
  request: { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body },
});
const BODIES: MaterialCase[] = [
  gql(
    'array batching, password guesses',
    JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        query: 'mutation L($p: String!) { login(user: "admin", password: $p) { token } }',
        variables: { p: `guess${i}` },
      })),
    ),
  ),
  gql(
    'SQL injection in a variable',
    JSON.stringify({ query: 'query U($id: String) { user(id: $id) { name } }', variables: { id: "1' OR '1'='1' --" } }),
  ),
  gql(
    'NoSQL operator in a variable',
    JSON.stringify({
      query: 'query U($f: JSON) { users(filter: $f) { name } }',
      variables: { f: { password: { $ne: null } } },
    }),
  ),
  gql(
    'traversal in a variable',
    JSON.stringify({
      query: 'query F($p: String) { file(path: $p) { content } }',
      variables: { p: '../../../../etc/passwd' },
    }),
  ),
  gql(
    'injection inside an argument literal',
    JSON.stringify({ query: '{ user(name: "x\\" UNION SELECT password FROM users --") { id } }' }),
  ),
];

const BENIGN_QUERIES = [
  'query GetUser($id: ID!) { user(id: $id) { id name email } }',
  'mutation { addToCart(productId: 7, qty: 2) { cart { total } } }',
  '{ me { name } a: product(id: 1) { price } b: product(id: 2) { price } }',
  'query Feed { feed(first: 10) { edges { node { ...PostFields } } } } fragment PostFields on Post { id title }',
  '{ search(text: "__init__ and __main__ in python") { title } }',
  '{ me { __typename id } }',
  'query { products(first: 5, where: { price_gt: 10 }) { id name } }',
  'query Docs { article(slug: "graphql-schema-introspection-explained") { title body } }',
  `query Deep { ${'a { b { '.repeat(6)}id${' }'.repeat(12)} }`,
  'query Q($a: Boolean!, $b: Boolean!) { x @include(if: $a) { id } y @include(if: $b) { id } z @skip(if: $a) { id } w @include(if: $b) { id } }',
];

const BENIGN_BODIES: MaterialCase[] = [
  gql(
    'a small batch of distinct queries',
    JSON.stringify([
      { query: '{ me { id } }' },
      { query: '{ cart { total } }' },
      { query: '{ notifications { id } }' },
    ]),
  ),
  gql(
    'variables of an ordinary search',
    JSON.stringify({
      query: 'query S($q: String) { search(q: $q) { id } }',
      variables: { q: "O'Brien & sons (Dublin)" },
    }),
  ),
];

export const graphql: Material = {
  sources: [
    'OWASP Cheat Sheet Series, "GraphQL" (introspection, batching attacks)',
    'swisskyrepo/PayloadsAllTheThings, "GraphQL Injection"',
    'GraphQL specification, §4 "Introspection"',
    'Doyensec and Escape, write-ups on alias-based batching against rate limits',
    'OWASP WSTG 4.12.1 "Testing GraphQL" (array batching, injection through variables, depth and directive abuse)',
  ],
  attacks: [
    ...QUERIES.flatMap(([value, how]) => PLACES.map((p): MaterialCase => ({ ...p, value, how: `${how}, ${p.place}` }))),
    ...BODIES,
  ],
  benign: [
    ...BENIGN_QUERIES.flatMap((value) => PLACES.map((p): MaterialCase => ({ ...p, value, how: 'benign' }))),
    ...BENIGN_BODIES,
  ],
};
