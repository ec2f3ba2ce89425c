import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saveDnsSetting } from '@rampart/contract';
import { SMTPServer } from 'smtp-server';
import { api } from './api.js';

const root = path.resolve(import.meta.dirname, '../..');
export const E2E_PASSWORD = 'e2e horse battery staple';

/** A real SMTP server on loopback that writes every message it receives into `dir`. */
async function startSmtp(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        n += 1;
        writeFileSync(path.join(dir, `${String(n).padStart(4, '0')}-${to}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startControlPlane(
  env: Record<string, string>,
  licenseKeysFile: string,
): Promise<{ child: ChildProcess; url: string }> {
  const start = path.join(root, 'apps/server/dist/start.js');
  if (!existsSync(start)) throw new Error('apps/server/dist/start.js is missing: run `npm run build` first');
  const entry = path.join(root, 'e2e/support/control-plane-entry.mjs');
  const child = spawn(process.execPath, [entry, licenseKeysFile], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`control plane did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Rampart control plane: (http:\/\/\S+?)\//.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`control plane exited with ${code}:\n${out}`)));
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const work = mkdtempSync(path.join(tmpdir(), 'rampart-e2e-'));
  const mailDir = path.join(work, 'mail');
  mkdirSync(mailDir);
  const smtp = await startSmtp(mailDir);
  // The vendor's licence signing key of this run (the offline licence test): the server signs with
  // it and trusts it, given to it by the harness's entry (control-plane-entry.mjs), never by its
  // environment (docs/decisions.md "Licences"). Made per run, never kept.
  const licenseKey = generateKeyPairSync('ed25519');
  const licenseKeysFile = path.join(work, 'license-keys.json');
  writeFileSync(
    licenseKeysFile,
    JSON.stringify({
      kid: 'e2e-1',
      publicKey: licenseKey.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64'),
      privateKeyPem: licenseKey.privateKey.export({ format: 'pem', type: 'pkcs8' }),
    }),
    { mode: 0o600 },
  );
  const server = await startControlPlane(
    {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      RAMPART_INIT_PASSWORD: E2E_PASSWORD,
      // Test domains are served without proof of control (the server's tests cover the proof).
      RAMPART_DOMAIN_PROOF: '0',
      // The DNS server, SMTP server and other outgoing targets of the tests run on loopback (origins
      // stay refused there: sites.spec.ts checks the message).
      RAMPART_ALLOW_PRIVATE_TARGETS: '1',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}?from=${encodeURIComponent('Rampart <noreply@rampart.test>')}`,
      // Short-lived access tokens, so that the tests see the console refresh them as it works.
      RAMPART_ACCESS_TOKEN_TTL: '3',
    },
    licenseKeysFile,
  );
  const stop = async () => {
    await new Promise<void>((resolve) => {
      if (server.child.exitCode !== null) return resolve();
      server.child.once('exit', () => resolve());
      server.child.kill('SIGTERM');
    });
    await smtp.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    process.env.RAMPART_E2E_URL = server.url;
    process.env.RAMPART_E2E_PASSWORD = E2E_PASSWORD;
    process.env.RAMPART_E2E_MAIL_DIR = mailDir;
    // The operator has a DNS provider, so its logins land on the dashboard (a root operator without
    // one lands on the DNS setting page: tests/dns-setting.spec.ts). Saving does not contact it.
    await api('client', saveDnsSetting, {
      body: {
        type: 'rfc2136',
        server: '127.0.0.1:53',
        zone: 'cdn.rampart.test',
        keyName: 'e2e',
        algorithm: 'hmac-sha256',
        secret: 'ZTJl',
        ttl: 60,
      },
    });
  } catch (error) {
    // A setup that fails after the server started must not leave it running (Playwright calls no
    // teardown then).
    await stop();
    throw error;
  }
  return stop;
}
