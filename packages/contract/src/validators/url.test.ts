import { describe, expect, it } from 'vitest';
import { validateDomainName } from './domain.js';
import { normalizeCorsOrigin, normalizeRedirectTarget } from './url.js';
import { zCorsOrigin, zDomainName, zEmail, zRedirectTarget } from './zod.js';

// The whole class: every field holding a domain name maps it by UTS #46 (fullwidth forms,
// ideographic dots, case, ignorable zero-width characters) or refuses it, never keeps a
// look-alike as its own Punycode label; every port is 1–65535.

describe('domain names are mapped by UTS #46', () => {
  it.each([
    ['ｅｘａｍｐｌｅ.com', 'example.com'],
    ['ＥＸＡＭＰＬＥ．ＣＯＭ', 'example.com'],
    ['ex\u200Bample.com', 'example.com'], // zero-width space: ignored
    ['ex\u00ADample.com', 'example.com'], // soft hyphen: ignored
    ['ex\u2060ample.com', 'example.com'], // word joiner: ignored
    ['\uFEFFexample.com', 'example.com'], // byte-order mark: ignored
    ['例子。测试', 'xn--fsqu00a.xn--0zwm56d'],
    ['ｍüｎｃｈｅｎ.de', 'xn--mnchen-3ya.de'],
  ])('%j → %s', (input, ascii) => {
    expect(validateDomainName(input)).toEqual({ ok: true, ascii });
  });

  it.each([
    ['a\u200Db.com', 'punycode_error'], // zero-width joiner out of context
    ['a\u200Cb.com', 'punycode_error'], // zero-width non-joiner out of context
    ['ex%61mple.com', 'invalid_format'], // no percent-decoding into a host
    ['ex\u3000ample.com', 'invalid_format'], // ideographic space
    ['ex\u00A0ample.com', 'invalid_format'], // no-break space
    ['example.com:80', 'invalid_format'],
  ])('%j is refused (%s)', (input, reason) => {
    expect(validateDomainName(input)).toEqual({ ok: false, reason });
  });
});

describe('CORS origins', () => {
  it.each([
    ['*', '*'],
    ['https://example.com', 'https://example.com'],
    ['HTTPS://Example.COM:8443', 'https://example.com:8443'],
    ['https://*.example.com', 'https://*.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:65535', 'http://127.0.0.1:65535'],
    ['https://ｅｘａｍｐｌｅ.com', 'https://example.com'],
    ['https://ex\u200Bample.com', 'https://example.com'],
    ['https://münchen.de', 'https://xn--mnchen-3ya.de'],
  ])('%j → %s', (input, value) => {
    expect(normalizeCorsOrigin(input)).toEqual({ ok: true, value });
    expect(zCorsOrigin.parse(input)).toBe(value);
  });

  it.each([
    ['https://example.com:99999', 'invalidPort'],
    ['https://example.com:0', 'invalidPort'],
    ['https://example.com:65536', 'invalidPort'],
    ['https://example.com:080', 'wrongFormat'],
    ['https://example.com:', 'wrongFormat'],
    ['https://example.com/', 'wrongFormat'],
    ['https://a\u200Db.com', 'wrongFormat'],
    ['ftp://example.com', 'wrongFormat'],
    ['https://user@example.com', 'wrongFormat'],
  ])('%j is refused (%s)', (input, key) => {
    expect(normalizeCorsOrigin(input)).toEqual({ ok: false, key });
  });
});

describe('redirect targets', () => {
  it.each([
    ['/new/$1', '/new/$1'],
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['https://ｅｘａｍｐｌｅ.com:8080/', 'https://example.com:8080/'],
    ['http://münchen.de/x', 'http://xn--mnchen-3ya.de/x'],
  ])('%j → %s', (input, value) => {
    expect(normalizeRedirectTarget(input)).toEqual({ ok: true, value });
    expect(zRedirectTarget.parse(input)).toBe(value);
  });

  it.each([
    ['https://example.com:99999/', 'invalidPort'],
    ['https://example.com:0/', 'invalidPort'],
    ['https://ex\u200Dample.com/', 'wrongFormat'],
    ['https://example.com', 'wrongFormat'],
  ])('%j is refused (%s)', (input, key) => {
    expect(normalizeRedirectTarget(input)).toEqual({ ok: false, key });
  });
});

describe('every domain-name schema maps the same way', () => {
  it('domains, host headers and e-mail domains', () => {
    expect(zDomainName().parse('ｅｘａｍｐｌｅ.com')).toBe('example.com');
    expect(zDomainName({ wildcard: true }).parse('*.ex\u200Bample.com')).toBe('*.example.com');
    expect(zEmail.parse('ops@ｅｘａｍｐｌｅ.com')).toBe('ops@example.com');
    expect(zEmail.parse('ops@münchen.de')).toBe('ops@xn--mnchen-3ya.de');
    expect(zDomainName().safeParse('a\u200Db.com').success).toBe(false);
  });
});
