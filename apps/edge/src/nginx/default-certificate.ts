import { execFile } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertificatePaths {
  certPath: string;
  keyPath: string;
}

/**
 * The static certificate nginx presents when no uploaded one applies (no SNI, an unknown name, a
 * domain without a certificate): a self-signed P-256 certificate made once in `dir`. nginx's master
 * reads both files at (re)load, so the key stays 0600 root.
 */
export async function ensureDefaultCertificate(dir: string): Promise<CertificatePaths> {
  const certPath = path.join(dir, 'default.crt');
  const keyPath = path.join(dir, 'default.key');
  try {
    await Promise.all([access(certPath), access(keyPath)]);
    return { certPath, keyPath };
  } catch {
    // Missing: make a new pair below.
  }
  await mkdir(dir, { recursive: true, mode: 0o755 });
  await writeSelfSignedCertificate({ certPath, keyPath }, { commonName: 'rampart-default', days: 3650 });
  return { certPath, keyPath };
}

/** Writes a self-signed P-256 certificate and its key with openssl (and a DNS subjectAltName when given). */
export async function writeSelfSignedCertificate(
  paths: CertificatePaths,
  subject: { commonName: string; days: number; altName?: string },
): Promise<void> {
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    String(subject.days),
    '-subj',
    `/CN=${subject.commonName}`,
    ...(subject.altName ? ['-addext', `subjectAltName=DNS:${subject.altName}`] : []),
    '-keyout',
    paths.keyPath,
    '-out',
    paths.certPath,
  ]);
}
