import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { cleanUpAgents } from './agent.js';
import { type FakeControlPlane, startFakeControlPlane } from './fake-control-plane.js';
import { letGo, tcpEcho } from './layer4.js';
import { type Origin, startOrigin } from './origins.js';

interface AgentRigOptions {
  /** The origin's name (what it answers with). */
  origin?: string;
  /** A TCP echo server (`echo`) for layer-4 ports too. */
  echo?: boolean;
  /** A new fake control plane for every test rather than one for the file. */
  controlPlanePerTest?: boolean;
}

export interface AgentRig {
  readonly origin: Origin;
  readonly echo: Awaited<ReturnType<typeof tcpEcho>>;
  readonly cp: FakeControlPlane;
}

/**
 * For a file of agent tests: an origin (and a TCP echo server) and a fake control plane for its
 * agents, started before the file's tests (or each test's, for the control plane) and closed after
 * them; every test's agents are stopped after it.
 */
export function agentRig(options: AgentRigOptions = {}): AgentRig {
  let origin: Origin | undefined;
  let echo: AgentRig['echo'] | undefined;
  let cp: FakeControlPlane | undefined;
  beforeAll(async () => {
    origin = await startOrigin(options.origin ?? 'origin');
    if (options.echo) echo = await tcpEcho('echo');
    if (!options.controlPlanePerTest) cp = await startFakeControlPlane();
  });
  if (options.controlPlanePerTest) {
    beforeEach(async () => {
      cp = await startFakeControlPlane();
    });
  }
  afterEach(async () => {
    await cleanUpAgents();
    if (options.controlPlanePerTest) await cp?.close();
  });
  afterAll(async () => {
    if (!options.controlPlanePerTest) await cp?.close();
    await origin?.close();
    if (echo) letGo(echo.server);
  });
  const started = <T>(part: T | undefined): T => {
    if (part === undefined) throw new Error('the agent rig starts in beforeAll (and beforeEach)');
    return part;
  };
  return {
    get origin() {
      return started(origin);
    },
    get echo() {
      return started(echo);
    },
    get cp() {
      return started(cp);
    },
  };
}
