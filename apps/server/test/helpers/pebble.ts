import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { Agent, get } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './clickhouse-server.js';
import { runDaemon } from './dns-server.js';

/** Debian's pebble, a small ACME test CA (package pebble, installed by scripts/test.sh). */
export const PEBBLE = '/usr/bin/pebble';

export interface Pebble {
  /** `https://127.0.0.1:<port>/dir` */
  readonly directoryUrl: string;
  /** The PEM of the test CA that signs pebble's own HTTPS certificate (the ACME setting's caBundle). */
  readonly caBundle: string;
  /** The PEM of the root that signs the certificates pebble issues. */
  issuingRoot(): Promise<string>;
  log(): string;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/**
 * Starts pebble on loopback with its own HTTPS certificate (signed by a CA made here with openssl),
 * checking HTTP-01 challenges on `httpPort` of the addresses `dnsServer` (`127.0.0.1:<port>`) gives.
 */
export async function startPebble(options: { httpPort: number; dnsServer: string }): Promise<Pebble> {
  if (!existsSync(PEBBLE)) throw new Error(`${PEBBLE} is missing: install Debian's pebble (scripts/test.sh does)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-pebble-'));
  const f = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=rampart test CA',
  ]);
  await run('openssl', ['req', ...ec, '-keyout', f('key.pem'), '-out', f('csr.pem'), '-subj', '/CN=localhost']);
  await writeFile(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    f('csr.pem'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('cert.pem'),
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
  ]);
  const [port, managementPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
  await writeFile(
    f('config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: f('cert.pem'),
        privateKey: f('key.pem'),
        httpPort: options.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  // No random sleeps before validation, no rejected nonces, no reused authorizations: each order
  // is checked again, at once.
  const env = ['PEBBLE_VA_NOSLEEP=1', 'PEBBLE_WFE_NONCEREJECT=0', 'PEBBLE_AUTHZREUSE=0'];
  const daemon = runDaemon(
    '/usr/bin/env',
    [...env, PEBBLE, '-config', f('config.json'), '-dnsserver', options.dnsServer],
    dir,
  );
  const caBundle = await readFile(f('ca.pem'), 'utf8');
  const agent = new Agent({ ca: caBundle });
  const fetchText = (url: string) =>
    new Promise<string>((resolve, reject) => {
      get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode}`))));
      }).on('error', reject);
    });
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (daemon.child.exitCode !== null) {
      const log = daemon.log();
      await daemon.stop();
      throw new Error(`pebble exited:\n${log}`);
    }
    try {
      await fetchText(directoryUrl);
      break;
    } catch {
      if (Date.now() > deadline) {
        const log = daemon.log();
        await daemon.stop();
        throw new Error(`pebble did not answer within 15 s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    directoryUrl,
    caBundle,
    issuingRoot: () => fetchText(`https://127.0.0.1:${managementPort}/roots/0`),
    log: daemon.log,
    stop: daemon.stop,
  };
}
