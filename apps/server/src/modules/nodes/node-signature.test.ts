import { signedNodeHeaders } from '@rampart/contract/node-signing';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../platform/crypto/secret-box.js';
import { createNodeSignatures } from './node-signature.js';
import type { NodesRepository } from './nodes.repository.js';

const box = new SecretBox('x'.repeat(40));
const PATH = '/api/node/v1/aggregates';

/** A nodes repository with one node (id 7) whose lookups wait until released, counting them. */
function slowNodes() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const calls: number[] = [];
  const nodes = {
    findNode: async (id: number) => {
      calls.push(id);
      await gate;
      return id === 7 ? { id, ownerId: 3, secretSealed: box.seal('the node secret') } : undefined;
    },
  } as unknown as NodesRepository;
  return { nodes, calls, release };
}

const request = (nodeId: number, secret: string, now: number) =>
  ({
    method: 'POST',
    originalUrl: PATH,
    headers: signedNodeHeaders({ nodeId, nodeSecret: secret }, 'POST', PATH, 'body', { nowMs: now }),
  }) as unknown as FastifyRequest;

describe('the node signatures at admission', () => {
  it('look a node not kept up once for requests arriving together, known or not', async () => {
    const now = 1_800_000_000_000;
    const { nodes, calls, release } = slowNodes();
    const signatures = createNodeSignatures(nodes, box, () => now);
    const known = Array.from({ length: 5 }, () => signatures.headers(request(7, 'the node secret', now)));
    const unknown = Array.from({ length: 5 }, () =>
      signatures.headers(request(9, 'a guess', now)).then(
        () => 'admitted',
        (error: { code?: number }) => error.code,
      ),
    );
    release();
    expect(await Promise.all(known)).toEqual(Array.from({ length: 5 }, () => ({ nodeId: 7, ownerId: 3 })));
    expect(await Promise.all(unknown)).toEqual(Array.from({ length: 5 }, () => 101013));
    expect(calls.sort()).toEqual([7, 9]);
  });
});
