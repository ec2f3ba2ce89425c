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
