import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanUpAgents } from './agent.js';
import { type FakeControlPlane, startFakeControlPlane } from './fake-control-plane.js';
import { type Origin, startOrigin } from './origins.js';

/**
 * For a file of agent tests: an origin and a fake control plane for its agents, started before the
 * file's tests and closed after them; every test's agents are stopped after it.
 */
export function agentRig(): { readonly origin: Origin; readonly cp: FakeControlPlane } {
  let origin: Origin | undefined;
  let cp: FakeControlPlane | undefined;
  beforeAll(async () => {
    origin = await startOrigin('origin');
    cp = await startFakeControlPlane();
  });
  afterEach(async () => cleanUpAgents());
  afterAll(async () => {
    await cp?.close();
    await origin?.close();
  });
  const started = <T>(part: T | undefined): T => {
    if (part === undefined) throw new Error('the agent rig starts in beforeAll');
    return part;
  };
  return {
    get origin() {
      return started(origin);
    },
    get cp() {
      return started(cp);
    },
  };
}
