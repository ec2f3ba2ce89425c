import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { ValidationKey } from '@rampart/contract';

/**
 * Reads an uploaded certificate chain and key with Node's X509 support (OpenSSL underneath).
 * What is stored and sent to nodes is re-encoded here, so only canonical PEM blocks leave this
 * module: the chain as CERTIFICATE blocks (leaf first), the key as unencrypted PKCS#8.
 */

export interface ParsedCertificate {
  readonly chainPem: string;
  readonly keyPem: string;
  /** DNS names covered, lower-case; subject alternative names, else the subject's common name. */
  readonly names: string[];
  readonly issuer: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly fingerprint: string;
}

export class CertificateInputError extends Error {
  constructor(
    readonly field: 'certificate' | 'privateKey',
    readonly key: ValidationKey,
    readonly params?: Record<string, string>,
  ) {
    super(key);
  }
}

const BLOCK_RE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

function subjectField(dn: string | undefined, field: string): string | undefined {
  for (const line of (dn ?? '').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq) === field) return line.slice(eq + 1);
  }
  return undefined;
}

/** DNS names from `DNS:a.example, DNS:*.b.example, IP Address:1.2.3.4`. */
function dnsNames(altNames: string | undefined): string[] {
  if (!altNames) return [];
  return altNames
    .split(/,\s*/)
    .filter((part) => part.startsWith('DNS:'))
    .map((part) => part.slice(4).trim().toLowerCase())
    .filter((name) => name.length > 0);
}

function readKey(pem: string): KeyObject {
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(pem) || /ENCRYPTED/.test(pem)) {
    throw new CertificateInputError('privateKey', 'certificateKeyInvalid');
  }
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new CertificateInputError('privateKey', 'certificateKeyInvalid');
  }
}

export function parseCertificate(chainText: string, keyText: string, now: Date): ParsedCertificate {
  const blocks = chainText.match(BLOCK_RE) ?? [];
  if (blocks.length === 0 || chainText.replace(BLOCK_RE, '').trim() !== '') {
    throw new CertificateInputError('certificate', 'certificateInvalid');
  }
  let chain: X509Certificate[];
  try {
    chain = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw new CertificateInputError('certificate', 'certificateInvalid');
  }
  const leaf = chain[0] as X509Certificate;
  const key = readKey(keyText);
  if (key.type !== 'private' || !leaf.checkPrivateKey(key)) {
    throw new CertificateInputError('privateKey', 'certificateKeyMismatch');
  }
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  if (Number.isNaN(notBefore.getTime()) || Number.isNaN(notAfter.getTime())) {
    throw new CertificateInputError('certificate', 'certificateInvalid');
  }
  if (notAfter.getTime() <= now.getTime()) {
    throw new CertificateInputError('certificate', 'certificateExpired', { date: notAfter.toISOString().slice(0, 10) });
  }
  let names = dnsNames(leaf.subjectAltName);
  if (names.length === 0) {
    const cn = subjectField(leaf.subject, 'CN')?.toLowerCase();
    names = cn ? [cn] : [];
  }
  if (names.length === 0) throw new CertificateInputError('certificate', 'certificateInvalid');
  const issuer = subjectField(leaf.issuer, 'CN') ?? subjectField(leaf.issuer, 'O') ?? leaf.issuer.replace(/\n/g, ', ');
  return {
    chainPem: `${chain.map((c) => c.toString().trim()).join('\n')}\n`,
    keyPem: String(key.export({ type: 'pkcs8', format: 'pem' })),
    names: [...new Set(names)],
    issuer,
    notBefore,
    notAfter,
    fingerprint: leaf.fingerprint256,
  };
}

/**
 * Whether a certificate with `names` is valid for host `domain`: an exact name, or a `*.` name
 * covering exactly one more label (RFC 6125). A wildcard domain needs the same wildcard name.
 */
export function certificateCovers(names: readonly string[], domain: string): boolean {
  const host = domain.toLowerCase();
  if (names.includes(host)) return true;
  if (host.startsWith('*.')) return false;
  const dot = host.indexOf('.');
  return dot > 0 && names.includes(`*${host.slice(dot)}`);
}
