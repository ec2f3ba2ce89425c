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
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'json', name: 'query' },
  { place: 'query', name: 'query' },
  { place: 'form', name: 'query' },
  { place: 'multipart', name: 'operations' },
];

const BENIGN_QUERIES = [
  'query GetUser($id: ID!) { user(id: $id) { id name email } }',
  'mutation { addToCart(productId: 7, qty: 2) { cart { total } } }',
  '{ me { name } a: product(id: 1) { price } b: product(id: 2) { price } }',
  'query Feed { feed(first: 10) { edges { node { ...PostFields } } } } fragment PostFields on Post { id title }',
  '{ search(text: "__init__ and __main__ in python") { title } }',
];

export const graphql: Material = {
  sources: [
    'OWASP Cheat Sheet Series, "GraphQL" (introspection, batching attacks)',
    'swisskyrepo/PayloadsAllTheThings, "GraphQL Injection"',
    'GraphQL specification, §4 "Introspection"',
    'Doyensec and Escape, write-ups on alias-based batching against rate limits',
  ],
  attacks: QUERIES.flatMap(([value, how]) =>
    PLACES.map((p): MaterialCase => ({ ...p, value, how: `${how}, ${p.place}` })),
  ),
  benign: BENIGN_QUERIES.flatMap((value) => PLACES.map((p): MaterialCase => ({ ...p, value, how: 'benign' }))),
};
