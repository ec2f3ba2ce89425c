import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent } from './agent.js';
import { parseCli, USAGE, UsageError } from './cli.js';
import { releaseToRun } from './commands/release-handoff.js';
import { EVENT_WORKER_ARG, runEventWorker } from './events/event-worker.js';
import { errorText, jsonLineLogger } from './log.js';
import { StateLockedError } from './process/state-lock.js';
import { AGENT_VERSION } from './version.js';

/** Exit status asking the service manager to start the agent again (after an upgrade). */
export const EXIT_RESTART = 75;
/** Exit status of an agent refused because another one runs on its state directory (as the control plane's DATA_DIR lock). */
export const EXIT_STATE_LOCKED = 3;

/**
 * `rampart-edge`: runs the edge agent until SIGTERM or SIGINT, then stops polling, stops nginx
 * gracefully and exits 0. A second signal exits at once (1).
 */
async function main(): Promise<number> {
  let cli: ReturnType<typeof parseCli>;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`rampart-edge: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (cli.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (cli.kind === 'version') {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return 0;
  }
  const log = jsonLineLogger();
  for (const warning of cli.warnings) log('warn', 'agent.option_ignored', { message: warning });
  // An upgrade installed another release: run it in this process (its own main() takes over and
  // exits the process). One that does not even load leaves this agent running instead.
  const release = releaseToRun(cli.options.stateDir, fileURLToPath(import.meta.url), AGENT_VERSION);
  if (release !== null) {
    log('info', 'agent.handoff', { from: AGENT_VERSION, bundle: release });
    try {
      await import(pathToFileURL(release).href);
      return new Promise<number>(() => {});
    } catch (err) {
      log('error', 'agent.handoff_failed', { bundle: release, error: errorText(err) });
    }
  }
  const agent = new Agent({ ...cli.options, logger: log });
  let stopping: Promise<void> | null = null;
  const stopped = new Promise<number>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        log('warn', 'agent.forced_exit', { signal });
        process.exit(1);
      }
      log('info', 'agent.stopping', { signal });
      stopping = agent.stop().then(
        () => resolve(0),
        (err: unknown) => {
          log('error', 'agent.stop_failed', { error: errorText(err) });
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    // After an upgrade: leave nginx serving, then start again, by ourselves or by the service manager.
    void agent.restartRequested.then(async (version) => {
      if (stopping) return;
      stopping = agent.detach();
      await stopping;
      if (!cli.selfRestart) {
        log('info', 'agent.restarting', { version, exitCode: EXIT_RESTART });
        return resolve(EXIT_RESTART);
      }
      const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
        detached: true,
        stdio: 'inherit',
      });
      child.unref();
      log('info', 'agent.restarting', { version, pid: child.pid ?? null });
      resolve(0);
    });
  });
  try {
    await agent.start();
  } catch (err) {
    if (err instanceof StateLockedError) {
      // Another agent runs here: nothing was touched, its nginx keeps serving.
      log('error', 'agent.state_locked', { stateDir: cli.options.stateDir, error: err.message });
      return EXIT_STATE_LOCKED;
    }
    // Nothing was started: an nginx left running by an earlier agent keeps serving.
    log('error', 'agent.start_failed', { error: errorText(err) });
    return 1;
  }
  return stopped;
}

// The same bundle is also the request events' process the agent starts (event-worker.ts).
(process.argv[2] === EVENT_WORKER_ARG ? runEventWorker() : main()).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`rampart-edge: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
