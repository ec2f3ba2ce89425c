import { Backoff, pause } from '../backoff.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Credentials, StateDir } from '../process/state.js';
import { AGENT_VERSION } from '../version.js';
import type { NodeClient } from './node-client.js';

export interface RegistrationOptions {
  client: NodeClient;
  state: StateDir;
  log: Logger;
  signal: AbortSignal;
  controlPlane: string;
  joinToken: string;
  hostname: string;
  ips: string[];
  backoffMinMs: number;
  backoffMaxMs: number;
  /** The node has credentials (called before they are written to disk). */
  registered: (credentials: Credentials) => void;
}

/**
 * Registers the node with the operator's join token, retrying with a backoff until it succeeds or
 * `signal` aborts. The credentials go to `registered`, the client and the state directory.
 */
export async function registerWithBackoff(options: RegistrationOptions): Promise<void> {
  const { client, log, signal, hostname, ips } = options;
  const backoff = new Backoff(options.backoffMinMs, options.backoffMaxMs);
  while (!signal.aborted) {
    try {
      const { nodeId, nodeSecret } = await client.register(
        { joinToken: options.joinToken, hostname, ips, version: AGENT_VERSION },
        signal,
      );
      const credentials = { nodeId, nodeSecret, controlPlane: options.controlPlane };
      options.registered(credentials);
      client.setCredentials(credentials);
      try {
        await options.state.writeCredentials(credentials);
      } catch (err) {
        // Registering again would make a second node: run with the credentials in memory.
        log('error', 'credentials.save_failed', { error: describeError(err) });
      }
      // Logged once the credentials are on disk (or known not to be), so the line means "joined".
      log('info', 'registered', { nodeId, hostname, ips });
      return;
    } catch (err) {
      if (signal.aborted) return;
      const retryInMs = backoff.next();
      log('warn', 'register.failed', { error: describeError(err), retryInMs });
      await pause(retryInMs, signal);
    }
  }
}
