/**
 * Finds English left in Chinese interface texts (the console's i18n resources and the contract's
 * localized messages): after the placeholders and markup are taken out, any Latin word of two or
 * more letters that is not a name, a product or a technical acronym kept as such in Chinese
 * writing is a text someone forgot to translate ("自定义 Header", "(default)").
 */

/**
 * Latin words a Chinese text may hold, each with where it is used. Kept short on purpose: a word
 * belongs here only when Chinese interfaces write it in Latin letters too (a protocol, a file
 * format, a product's own name); anything with a usual Chinese translation is translated.
 */
export const LATIN_WORDS_ALLOWED: Readonly<Record<string, string>> = {
  // Protocols and standards, written so in Chinese interfaces.
  HTTP: 'protocol: HTTP ports, HTTP → HTTPS redirects, layer-7 (HTTP/HTTPS)',
  HTTPS: 'protocol: HTTPS ports, force HTTPS',
  URL: 'cache purge and preheat of URLs, URL redirect modules',
  Basic: 'the HTTP Basic authentication scheme of auth groups (a protocol name)',
  JWT: 'JSON Web Tokens of auth groups (a standard)',
  iss: 'the JWT claim name an auth credential requires',
  aud: 'the JWT claim name an auth credential requires',
  exp: 'the JWT expiry claim an auth credential may require',
  URI: 'the otpauth URI of the authenticator setup',
  TCP: 'layer-4 port protocol (TCP/UDP)',
  UDP: 'layer-4 port protocol (TCP/UDP)',
  DNS: 'DNS records, DNS lines, DNS settings',
  CNAME: 'CNAME records and the CNAME domain of sites',
  TXT: 'the TXT record proving control of a domain',
  IP: 'IP addresses of nodes, upstreams and clients',
  IPv4: 'address family of upstreams and sub-nodes',
  IPv6: 'address family of upstreams and sub-nodes',
  TLS: 'TLS handshake limits of zones',
  SSL: 'SSL certificates, force SSL',
  CORS: 'CORS modules of sites',
  QUIC: 'HTTP/3 needs QUIC, which the nodes do not have',
  PROXY: "the PROXY protocol of load balancers (a zone's trusted proxies)",
  CC: 'anti-CC (challenge collapsar): the industry name of the application-layer flood defence, kept in Chinese consoles',
  API: 'API tokens, the API documentation',
  ID: 'request IDs, role IDs and other identifiers',
  MaxMind: "the format of the operator's geo database (MaxMind DB), a product name",
  GeoLite2: 'MaxMind’s free geo databases an operator may install, a product name',
  GeoIP2: 'MaxMind’s geo databases an operator may install, a product name',
  ASN: "autonomous system number: the operator's ASN database (GeoLite2 ASN, a product name), written so in Chinese network consoles",
  NUL: 'the NUL character refused in texts',
  // File and data formats.
  JSON: 'request bodies sent as JSON',
  CSV: 'the file format of exports (domains, statistics, log export files), written so in Chinese interfaces',
  PNG: 'logo image formats',
  JPEG: 'logo image formats',
  GIF: 'logo image formats',
  WebP: 'logo image formats',
  ICO: 'favicon image format',
  HTML: 'custom error pages, sent as HTML',
  gzip: 'HTTP compression of sites',
  // Products and names.
  Rampart: 'the product name',
  nginx: 'the web server the nodes run, its settings and commands',
  Lua: 'the language of the edge modules',
  WAF: 'the web application firewall (WAF modules, WAF logs), the industry name kept in Chinese consoles',
  ACL: 'access control lists (the Lua ACL modules), the industry name kept in Chinese consoles',
  Cookie: 'the HTTP header named Cookie (conditions of ACL rules)',
  token: 'the query parameter of token-auth links (?token=…)',
  timestamp: 'the query parameter of token-auth links (&timestamp=…)',
  md5: 'the hash function of token-auth links, md5(key + path + timestamp)',
  CN: 'an ISO 3166 country code given as an example of ACL country conditions',
  US: 'an ISO 3166 country code given as an example of ACL country conditions',
  // Attack families of the WAF's rule groups, named so in Chinese security products.
  SQL: 'SQL injection, a WAF rule group',
  XML: 'XML external entities, a WAF rule group',
  PHP: 'PHP injection, a WAF rule group',
  Java: 'Java injection, a WAF rule group',
  JavaScript: 'server-side JavaScript of the template-injection WAF rule group',
  JNDI: 'the Java naming interface Log4Shell abuses, a WAF rule group',
  Log4Shell: 'the name of the Log4j vulnerability (CVE-2021-44228), a WAF rule group',
  NoSQL: 'the family of databases the NoSQL-injection WAF rule group guards, written so in Chinese security products',
  MongoDB: 'the database whose query operators the NoSQL WAF rule group looks for (a product name)',
  LDAP: 'the directory protocol of the LDAP-injection WAF rule group',
  GraphQL: 'the query language of the GraphQL WAF rule group (a standard)',
  Shell: 'shell commands of the command-injection WAF rule group',
  Shellshock: 'the name of the bash vulnerability (CVE-2014-6271), a WAF rule group',
  CVE: 'Common Vulnerabilities and Exposures, the public list of vulnerability identifiers (the cve WAF rule group)',
  Struts: 'Apache Struts, a Java web framework whose OGNL flaws the cve WAF rule group knows (a product name)',
  Confluence: 'Atlassian Confluence, a wiki whose OGNL flaws the cve WAF rule group knows (a product name)',
  OGNL: 'Object-Graph Navigation Language, the expression language of Struts and Confluence exploits (a standard)',
  Spring4Shell: 'the name of the Spring Framework vulnerability (CVE-2022-22965), in the cve WAF rule group',
  Citrix: 'Citrix ADC/Gateway, whose path traversal (CVE-2019-19781) the cve WAF rule group knows (a product name)',
  // Automatic certificates (auto-certificates.ts): the protocol, the CAs' names, their credential terms.
  ACME: 'the protocol automatic certificates are issued with (RFC 8555)',
  ZeroSSL: 'a certificate authority an operator may choose, a product name',
  Google: 'Google Trust Services, a certificate authority an operator may choose (a product name)',
  Trust: 'Google Trust Services, a certificate authority an operator may choose (a product name)',
  Services: 'Google Trust Services, a certificate authority an operator may choose (a product name)',
  "Let's": "Let's Encrypt, a certificate authority an operator may choose (a product name)",
  Encrypt: "Let's Encrypt, a certificate authority an operator may choose (a product name)",
  EAB: 'External Account Binding (RFC 8555 §7.3.4): the credentials ZeroSSL and Google Trust Services issue, named so in Chinese interfaces',
  HMAC: 'the EAB HMAC key (a standard algorithm name)',
  CA: 'certificate authority, as in "private CA", written so in Chinese interfaces',
  // Sign-in.
  QR: 'the QR code of the authenticator setup',
  Prometheus: 'the monitoring system whose format the nodes’ and the control plane’s metrics are in, a product name',
  Telegram: 'the Telegram bot token of alert notices (error 101021)',
  SMTP: 'the mail protocol of the e-mail notification setting (SMTP server, host, port)',
  STARTTLS: 'the SMTP command that upgrades a connection to TLS, a setting of the SMTP server',
  // More standards, formats and units.
  ASCII: 'domain names converted to ASCII (Punycode)',
  Punycode: 'domain names converted to ASCII (Punycode)',
  CIDR: 'CIDR blocks of IP rules',
  PEM: 'certificate chains and private keys in PEM form',
  SSH: 'ports a node keeps for SSH and other services',
  UTC: 'log rotation times, which are UTC',
  CPU: 'node resource charts',
  KB: 'size and rate units (KB, KB/s)',
  MB: 'size unit of the request body limit',
  GB: 'size unit of traffic allowances and extra traffic plans',
  MiB: 'size unit of the space for log export files (mebibytes)',
  POST: 'the HTTP method of the API token exchange call',
  Host: 'the HTTP header named Host (origin Host header, header rules)',
  Expires: 'the HTTP header named Expires, which cache rules can honour',
  Referer: 'the HTTP header named Referer (anti-referer lists: "允许空 Referer")',
  Enter: 'the key labelled Enter, pressed after each tag or value',
  jpg: 'example file extensions of cache rules, typed without the dot',
  css: 'example file extensions of cache rules, typed without the dot',
  flv: 'example file extensions of token-auth scopes, typed without the dot',
  png: 'example file extensions of token-auth scopes, typed without the dot',
  apk: 'example file extensions of token-auth scopes, typed without the dot',
  // System names in the node install hints.
  Debian: 'the operating system the node installer supports',
  root: 'the Unix account the node installer runs as',
  sudo: 'the Unix command the local node script installs packages with',
  // The operator's DNS providers and what their settings name.
  PowerDNS: 'a DNS provider of the DNS setting, a product name',
  PostgreSQL: 'the config store backups (a product name)',
  Cloudflare: 'a DNS provider of the DNS setting, a product name',
  DNSPod: 'a DNS provider of the DNS setting, a product name',
  RFC: 'RFC 2136 dynamic updates, a DNS provider of the DNS setting (a standard)',
  TSIG: 'the TSIG key RFC 2136 updates are signed with (a standard)',
  TTL: 'the TTL of published DNS records',
  base64: 'the encoding a TSIG secret is written in',
  // Language names, each in its own language.
  English: 'the language menu names each language in itself',
};

/**
 * What is not text to translate: i18next `{{name}}`, `$t(key)`, trans tags; contract `{name}`
 * placeholders; and literals written as they are typed or sent — a run of ASCII holding
 * `/ . _ @ = : -` (a path, URL, host name, MIME type, header name like Cache-Control, version).
 */
const NOT_TEXT = [
  /\{\{[^}]*\}\}/g, // i18next interpolation
  /\$t\([^)]*\)/g, // i18next nesting
  /\$[A-Za-z_]\w*/g, // operators and variables as code writes them ($ne, $where)
  /(?<![A-Za-z0-9])__?[A-Za-z]\w*/g, // identifiers that start with an underscore (__schema)
  /<\/?[\w-]+\s*\/?>/g, // trans tags <0>, </0>, <b>, <br/>
  /\{\w+\}/g, // contract formatMessage placeholders
  /[A-Za-z]+:\/\/\S*/g, // URLs and bare schemes (http://)
  /[\w*<>]*[A-Za-z][\w*<>]*(?:[/.@=:-]+[\w*<>]+)+[/;]?|[/.@][\w*<>]+(?:[/.@=:-][\w*<>]*)*/g, // other literals
];

/** A Latin word: letters and digits with at least one letter ("IPv6", "2FA"), apostrophes inside. */
const WORD = /[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?/g;

/** The Latin words of two or more letters in `text`, placeholders, markup and literals left out. */
export function latinWords(text: string): string[] {
  const bare = NOT_TEXT.reduce((rest, pattern) => rest.replace(pattern, ' '), text);
  return (bare.match(WORD) ?? []).filter((word) => (word.match(/[A-Za-z]/g) ?? []).length >= 2);
}

/** The Latin words in `text` that a Chinese text should not hold. */
export function latinWordsIn(text: string, allowed: Readonly<Record<string, string>> = LATIN_WORDS_ALLOWED): string[] {
  return latinWords(text).filter((word) => !Object.hasOwn(allowed, word));
}

/** Every string in a tree of plain objects and arrays, with its dotted path (`audit.startTime`). */
export function textLeaves(tree: unknown, path = '', seen = new Set<unknown>()): [path: string, text: string][] {
  if (typeof tree === 'string') return [[path, tree]];
  if (typeof tree !== 'object' || tree === null || seen.has(tree)) return [];
  const proto = Object.getPrototypeOf(tree);
  if (!Array.isArray(tree) && proto !== Object.prototype && proto !== null) return []; // schemas, classes
  seen.add(tree);
  return Object.entries(tree).flatMap(([key, value]) => textLeaves(value, path ? `${path}.${key}` : key, seen));
}

/** `path: word` for each English word in the texts, for a test to expect an empty list. */
export function untranslatedWords(texts: readonly (readonly [path: string, text: string])[]): string[] {
  return texts.flatMap(([path, text]) => latinWordsIn(text).map((word) => `${path}: ${word}`));
}
