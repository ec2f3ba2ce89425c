// The browser tests' control plane: the built server (apps/server/dist/start.js, what `npm start`
// runs) started with the licence keys of this run, which it signs offline licences with and trusts.
// The keys come from the file named by the first argument, written by global-setup.ts: a production
// process has no way to be given a key to trust, by its environment or otherwise.
import { readFileSync } from 'node:fs';
import { startControlPlane } from '../../apps/server/dist/start.js';

const keys = JSON.parse(readFileSync(process.argv[2], 'utf8'));
startControlPlane({
  licenseKeys: {
    trusted: [{ kid: keys.kid, publicKey: keys.publicKey }],
    signing: { kid: keys.kid, privateKeyPem: keys.privateKeyPem },
  },
}).catch((error) => {
  process.stderr.write(`rampart (e2e): failed to start: ${error?.stack ?? String(error)}\n`);
  process.exit(1);
});
