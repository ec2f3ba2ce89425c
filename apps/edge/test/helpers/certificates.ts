import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSelfSignedCertificate } from '../../src/nginx/default-certificate.js';

/** A self-signed certificate for `commonName` made by openssl, as PEM text. */
export async function makeCertificate(commonName: string): Promise<{ certPem: string; keyPem: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-cert-'));
  try {
    const keyPath = path.join(dir, 'key.pem');
    const certPath = path.join(dir, 'cert.pem');
    await writeSelfSignedCertificate({ certPath, keyPath }, { commonName, days: 2, altName: commonName });
    return { certPem: await readFile(certPath, 'utf8'), keyPem: await readFile(keyPath, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
