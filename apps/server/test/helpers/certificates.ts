import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificate {
  /** Leaf first, then the issuing CA when there is one. */
  certPem: string;
  keyPem: string;
}

/**
 * Certificates made by openssl for the tests: the leaf covers `names` (subjectAltName), is valid
 * for `days` from now, and is self-signed or signed by a throw-away CA (`withCA`).
 */
export async function makeCertificate(
  names: string[],
  opts: { days?: number; withCA?: boolean } = {},
): Promise<TestCertificate> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-test-cert-'));
  const file = (name: string) => path.join(dir, name);
  const days = String(opts.days ?? 90);
  const san = `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`;
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    if (!opts.withCA) {
      await run('openssl', [
        'req',
        '-x509',
        ...ec,
        '-keyout',
        file('key.pem'),
        '-out',
        file('cert.pem'),
        '-days',
        days,
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        san,
      ]);
      return { certPem: await readFile(file('cert.pem'), 'utf8'), keyPem: await readFile(file('key.pem'), 'utf8') };
    }
    await run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      days,
      '-subj',
      '/CN=Rampart Test CA/O=Rampart Tests',
    ]);
    await run('openssl', [
      'req',
      '-new',
      ...ec,
      '-keyout',
      file('key.pem'),
      '-out',
      file('leaf.csr'),
      '-subj',
      `/CN=${names[0]}`,
    ]);
    await writeFile(file('ext.cnf'), `${san}\n`);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('cert.pem'),
      '-days',
      days,
      '-extfile',
      file('ext.cnf'),
    ]);
    const chain = (await readFile(file('cert.pem'), 'utf8')) + (await readFile(file('ca.pem'), 'utf8'));
    return { certPem: chain, keyPem: await readFile(file('key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
