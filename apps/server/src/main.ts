import { startControlPlane } from './start.js';

startControlPlane().catch((error: unknown) => {
  process.stderr.write(
    `rampart: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
