import type { WafPlace } from '../helpers/waf-send.js';
import type { Material, MaterialCase } from './types.js';

// NoSQL (MongoDB) injection: operators where a value is expected — in a query or form through
// the bracket syntax PHP and Express (qs) parse into objects, in JSON bodies as keys, in values an
// application parses as JSON — and JavaScript in $where or mapReduce strings. The benign side:
// bracketed argument names, prices with "$", prose with "this." and "db.".

const OPERATOR_NAMES = [
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$regex',
  '$in',
  '$nin',
  '$exists',
  '$where',
  '$or',
  '$expr',
  '$function',
  '$jsonSchema',
  '$not',
  '$elemMatch',
];

function bracketed(): MaterialCase[] {
  const out: MaterialCase[] = [];
  for (const [i, op] of OPERATOR_NAMES.entries()) {
    const field = ['username', 'password', 'user', 'email'][i % 4] as string;
    const value = op === '$regex' ? '.*' : op === '$exists' ? 'true' : op === '$where' ? '1' : '';
    for (const place of ['query', 'form'] as WafPlace[]) {
      out.push({ place, name: `${field}[${op}]`, value, how: `${place} brackets ${op}` });
    }
    out.push({ place: 'query', name: `${field}[${op}][]`, value: 'admin', how: `query brackets ${op}[]` });
  }
  out.push({ place: 'query', name: 'filter[password][$regex]', value: '^a', how: 'nested brackets' });
  out.push({ place: 'form', name: 'login[$ne]', value: '1', how: 'form brackets' });
  out.push({ place: 'query', name: 'username[%24ne]', value: 'x', how: 'encoded dollar in brackets' });
  out.push({ place: 'query', name: 'password[$regex]', value: '^a.*', how: 'regex prefix in brackets' });
  out.push({ place: 'form', name: 'filter[$where]', value: 'sleep(100)', how: '$where in brackets' });
  return out;
}

/** Values whose text is the injection (a string a server-side $where concatenates, or JSON). */
const VALUES: [string, string][] = [
  ['{"$ne": null}', 'operator object as a value'],
  ['{"$gt": ""}', 'operator object as a value'],
  ['{"$regex": "^adm"}', 'regex operator object'],
  ['{"$where": "sleep(5000)"}', '$where object'],
  ['{$ne: 1}', 'relaxed JSON operator'],
  ["'; return true; var a='", '$where string break, return true'],
  ["' || '1'=='1", '$where string break, comparison'],
  ['1; sleep(5000)', '$where sleep'],
  ["'; sleep(5000); var x='", '$where sleep after a break'],
  ['this.password.match(/.*/)//', '$where regex on a field'],
  ["'; while(true){}; var x='", '$where endless loop'],
  ["a'; return this.password[0] == 'a'; var b='", 'blind $where extraction'],
  ["0; return this.role == 'admin'", '$where field test'],
  ['db.users.find()', 'shell call'],
  ["';db.dropDatabase();'", 'shell call after a break'],
  ['db.getCollection("users").find({})', 'shell collection call'],
  ['function() { return this.credits > 0 }', '$where function'],
  [';var d = new Date(); do{c = new Date();}while(c-d<5000)', '$where busy wait'],
  ["1';var t=new Date();do{n=new Date();}while(n-t<3000);'", '$where busy wait after a break'],
  ['{"$regex": ".*", "$options": "i"}', 'regex with options'],
  ['{"username": {"$in": ["admin", "root"]}}', 'nested $in'],
  ['{"$expr": {"$gt": ["$balance", 0]}}', '$expr'],
  ['{"$function": {"body": "function() { sleep(5000) }", "args": [], "lang": "js"}}', '$function'],
  ["' && this.password.length > 0 && '1'=='1", '$where length probe'],
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'query', name: 'user' },
  { place: 'form', name: 'password' },
  { place: 'json', name: 'filter' },
  { place: 'multipart', name: 'q' },
  { place: 'cookie', name: 'prefs' },
  { place: 'header', name: 'query' },
  { place: 'xml', name: 'search' },
];

function values(): MaterialCase[] {
  return VALUES.flatMap(([value, how]) => PLACES.map((p) => ({ ...p, value, how: `${how}, ${p.place}` })));
}

/** JSON bodies whose keys are operators (sent as the value of a JSON field: nested objects). */
const JSON_KEYS: MaterialCase[] = [
  { place: 'json', name: '$ne', value: 'x', how: 'json key $ne' },
  { place: 'json', name: '$gt', value: '', how: 'json key $gt' },
  { place: 'json', name: '$where', value: 'this.a == 1', how: 'json key $where' },
  { place: 'json', name: '$regex', value: '.*', how: 'json key $regex' },
  { place: 'json', name: '$nin', value: 'x', how: 'json key $nin' },
  { place: 'json', name: '$or', value: '', how: 'json key $or' },
  { place: 'json', name: '$exists', value: 'true', how: 'json key $exists' },
];

/** Whole JSON bodies as an application receives them (top-level operators, JSON's own escapes). */
const body = (how: string, text: string): MaterialCase => ({
  place: 'json',
  name: '',
  value: text,
  how,
  request: { method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: text },
});
const BODIES: MaterialCase[] = [
  body('operator objects as login values', '{"username":{"$ne":null},"password":{"$ne":null}}'),
  body('escaped dollar (\\u0024)', '{"username":"admin","password":{"\\u0024gt":""}}'),
  body('top-level $where', '{"$where":"this.username == \'admin\'"}'),
  body('$or at the top', '{"$or":[{"username":"admin"},{"username":"root"}],"password":"x"}'),
  body('regex on a password', '{"username":"admin","password":{"$regex":"^a"}}'),
  body('aggregation $lookup', '[{"$lookup":{"from":"users","localField":"a","foreignField":"b","as":"u"}}]'),
];

const BENIGN: MaterialCase[] = [
  { place: 'query', name: 'price[min]', value: '5', how: 'bracketed name' },
  { place: 'query', name: 'filter[name]', value: 'bob', how: 'bracketed name' },
  { place: 'form', name: 'items[0][qty]', value: '2', how: 'bracketed name' },
  { place: 'json', name: 'price', value: '$5.00', how: 'dollar amount' },
  { place: 'json', name: 'note', value: 'this.is a sentence; return to sender', how: 'prose' },
  { place: 'form', name: 'comment', value: "Tom & Jerry; that's fine, return it", how: 'prose' },
  { place: 'query', name: 'host', value: 'db.example.com', how: 'host name' },
  { place: 'json', name: 'currency', value: 'US$ and €', how: 'currency' },
  { place: 'query', name: 'q', value: 'mongo $regex tutorial', how: 'search about operators' },
  { place: 'form', name: 'code', value: 'return true;', how: 'code snippet' },
  { place: 'json', name: 'template', value: 'Hello {{name}}, you owe $12', how: 'template text' },
  { place: 'form', name: 'snippet', value: 'do { i++; } while (i < 10)', how: 'loop in a code snippet' },
  { place: 'query', name: 'q', value: 'new Date() in javascript', how: 'search about dates' },
  { place: 'json', name: 'price', value: '$10 - $20', how: 'price range' },
  { place: 'form', name: 'sort[created]', value: 'desc', how: 'bracketed sort' },
  { place: 'json', name: 'query', value: 'where is my order?', how: 'prose with where' },
  { place: 'json', name: 'regex', value: '^[a-z]+$', how: 'a regex in a settings form' },
  { place: 'query', name: 'q', value: 'mongo $where clause vs $ne operator', how: 'search about operators' },
];

export const nosql: Material = {
  sources: [
    'OWASP Web Security Testing Guide 4.7.5.6 "Testing for NoSQL Injection"',
    'swisskyrepo/PayloadsAllTheThings, "NoSQL Injection" (operator injection, $where, blind extraction)',
    'MongoDB manual, "Query and Projection Operators" and "$where" (server-side JavaScript)',
    'HackTricks, "NoSQL injection" (bracket syntax in PHP and Express)',
    'MongoDB manual, "$function", "$expr" and "$lookup" (server-side code and aggregation stages in a filter)',
  ],
  attacks: [...bracketed(), ...values(), ...JSON_KEYS, ...BODIES],
  benign: BENIGN,
};
