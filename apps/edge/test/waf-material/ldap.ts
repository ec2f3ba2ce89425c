import type { WafPlace } from '../helpers/waf-send.js';
import type { Material, MaterialCase } from './types.js';

// LDAP injection: values that close the application's search filter and open another, or write a
// filter of their own (RFC 4515 syntax). The benign side: parentheses of prose, phone numbers,
// formulas and smileys.

const VALUES: [string, string][] = [
  ['*)(uid=*))(|(uid=*', 'filter break, or-all'],
  ['*)(|(objectClass=*)', 'filter break, objectClass'],
  ['admin)(&)', 'absolute true filter'],
  ['admin)(|(password=*)', 'filter break on password'],
  ['*)(&', 'wildcard and open and'],
  ['x)(cn=*', 'filter break on cn'],
  ['*))%00', 'wildcard close and null'],
  ['admin*)((|userPassword=*)', 'wildcard then or'],
  ['*)(objectClass=*', 'filter break, objectClass'],
  ['*)(mail=*@*', 'filter break on mail'],
  ['admin)(!(&(1=0)', 'negated false filter'],
  ['(&(uid=admin)(userPassword=*))', 'a whole filter'],
  ['(|(uid=*)(cn=*))', 'a whole or filter'],
  ['jdoe)(|(memberOf=cn=admins,dc=example,dc=com)', 'group membership'],
  ['*)(sAMAccountName=*', 'Active Directory account'],
  ['*)(userPrincipalName=*', 'Active Directory UPN'],
  ['userPassword:2.5.13.18:=secret', 'extensible match with a matching rule'],
  ['cn:dn:=admins', 'extensible match on DN attributes'],
  ['*)(uid:caseExactMatch:=Admin', 'filter break with an extensible match'],
  ['*)(userPassword=a*', 'blind extraction, prefix'],
  ['admin)(!(objectClass=void))', 'negation of a false filter'],
  ['*)(|(cn=*))', 'or-all closed'],
  ['admin)(|(objectclass=*))%00', 'or-all then a null'],
  ['%2a%29%28uid%3d%2a', 'URL-encoded filter break (double encoded once sent)'],
  ['admin)(description=*pass*', 'wildcard search in a description'],
  ['*)(%26(objectClass=user)(adminCount=1)', 'encoded and, AD admin accounts'],
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'query', name: 'user' },
  { place: 'form', name: 'username' },
  { place: 'json', name: 'login' },
  { place: 'xml', name: 'uid' },
  { place: 'multipart', name: 'cn' },
  { place: 'cookie', name: 'account' },
  { place: 'header', name: 'remote-user' },
];

const BENIGN_VALUES = [
  '(see page 2)',
  'call (555) 123-4567',
  'f(x) = (a)(b)',
  'smile :) (joke)',
  'foo(bar)',
  '* (asterisk) note',
  'Smith (née Jones)',
  '(a) first (b) second',
  '(1) mix (2) bake',
  'x := 5 (pascal)',
  'time 12:30:=',
  'John (admin) Smith',
  'price=(10)*2',
  'ACME (Europe) Ltd',
  'a*b*(c)',
  'cn=John Smith, ou=Sales',
  // (RFC 4515's escapes are the safe form: "\\29" is a parenthesis as data, not a filter break)
  '*\\29\\28uid=*',
];

export const ldap: Material = {
  sources: [
    'OWASP Cheat Sheet Series, "LDAP Injection Prevention"',
    'swisskyrepo/PayloadsAllTheThings, "LDAP Injection"',
    'RFC 4515, "LDAP: String Representation of Search Filters"',
    'Alonso & Parada, "LDAP Injection & Blind LDAP Injection" (Black Hat Europe 2008)',
  ],
  attacks: VALUES.flatMap(([value, how]) => PLACES.map((p) => ({ ...p, value, how: `${how}, ${p.place}` }))),
  benign: BENIGN_VALUES.flatMap((value) => PLACES.map((p): MaterialCase => ({ ...p, value, how: 'benign' }))),
};
