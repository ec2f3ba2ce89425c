import type { NodeFailedPort } from '@rampart/contract';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import type { SystemSampler } from '../process/system-info.js';
import { AGENT_VERSION } from '../version.js';
import type { NodeClient } from './node-client.js';

export interface StatusReporterOptions {
  /** The client once the node is registered; null before (nothing to report to). */
  client: () => NodeClient | null;
  appliedVersion: () => string;
  /** The plane sequence nginx's store holds (plane-loop.ts); null when it holds none or takes the snapshot's. */
  planeVersion?: () => string | null;
  lastError: () => string;
  /** Ports the node could not listen on with the config nginx runs. */
  failedPorts: () => NodeFailedPort[];
  ips: string[];
  system: SystemSampler;
  log: Logger;
  signal: AbortSignal;
}

/**
 * The status reporter: sends the agent's version, the applied snapshot's version, the last error,
 * the ports the node could not listen on, the node's addresses and the machine's system information. Reports are coalesced: at most one in
 * flight and one more queued, so a burst of changes sends the latest state once.
 */
export class StatusReporter {
  private inFlight: Promise<void> | null = null;
  private again = false;

  constructor(private readonly options: StatusReporterOptions) {}

  /** Sends a status report now (or once the one in flight has finished). */
  report(): void {
    const { log, signal } = this.options;
    const client = this.options.client();
    if (!client || signal.aborted) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = (async () => {
      do {
        this.again = false;
        try {
          const system = await this.options.system.sample().catch((err: unknown) => {
            log('warn', 'system.sample_failed', { error: describeError(err) });
            return undefined;
          });
          const planeVersion = this.options.planeVersion?.() ?? null;
          await client.reportStatus(
            {
              version: AGENT_VERSION,
              appliedVersion: this.options.appliedVersion(),
              ...(planeVersion !== null ? { planeVersion } : {}),
              lastError: this.options.lastError(),
              ips: this.options.ips,
              failedPorts: this.options.failedPorts(),
              ...(system ? { system } : {}),
            },
            signal,
          );
        } catch (err) {
          if (signal.aborted) break;
          log('warn', 'status.failed', { error: describeError(err) });
        }
      } while (this.again && !signal.aborted);
      this.inFlight = null;
    })();
  }

  /** Resolves when the report in flight (if any) has been sent. */
  async settled(): Promise<void> {
    await this.inFlight;
  }
}
