import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { sendAs, type Token } from './call.js';

/** What the module calls answer, as far as the scenario reads it. */
interface ModuleAnswer {
  statusCode: number;
  json(): { data: { id: number; name: string }[] & { id: number; name: string }; total: number; code: number };
}

/** The module calls every site-module type has (luaAcl, tokenAuth, waf: contract site-modules.ts). */
export interface ModuleCrudRoutes {
  create: Parameters<typeof sendAs>[2];
  list: Parameters<typeof sendAs>[2];
  update: Parameters<typeof sendAs>[2];
  delete: Parameters<typeof sendAs>[2];
}

/**
 * Creates two modules named `first` and `spare`, lists them (paged, by name), renames the spare,
 * refuses a second module of its new name (101025) and deletes it: the module calls of a type, as
 * its owner. Answers the id of `first`, which stays. `created` are fields both new modules show
 * (a type with rules: no rules yet; a type with settings: its defaults).
 */
export async function expectModuleCrud(
  app: FastifyInstance,
  owner: Token,
  routes: ModuleCrudRoutes,
  siteId: number,
  first: string,
  created: Record<string, unknown> = { ruleCount: 0 },
): Promise<number> {
  // The routes of one type share these shapes; the helper is not generic over each route's input.
  const send = (route: ModuleCrudRoutes[keyof ModuleCrudRoutes], input: object) =>
    (sendAs as (...args: unknown[]) => Promise<ModuleAnswer>)(app, owner, route, input);
  const made = await send(routes.create, {
    params: { siteId },
    body: { modules: [{ name: first }, { name: 'spare' }] },
  });
  expect(made.statusCode).toBe(200);
  expect(made.json().data).toMatchObject([
    { name: first, siteID: siteId, domainIDs: [], ...created },
    { name: 'spare', ...created },
  ]);
  const id = made.json().data[0]?.id as number;
  const spare = made.json().data[1]?.id as number;
  const page = await send(routes.list, { params: { siteId }, query: { pageSize: 1 } });
  expect(page.json()).toMatchObject({ total: 2, data: [{ id }] });
  expect((await send(routes.list, { params: { siteId }, query: { name: 'spa' } })).json().total).toBe(1);
  const renamed = await send(routes.update, { params: { siteId }, body: { id: spare, name: 'spare 2' } });
  expect(renamed.json().data).toMatchObject({ id: spare, name: 'spare 2' });
  expect(
    (await send(routes.create, { params: { siteId }, body: { modules: [{ name: 'spare 2' }] } })).json().code,
  ).toBe(101025);
  expect((await send(routes.delete, { params: { siteId }, body: { ids: [spare] } })).statusCode).toBe(200);
  expect((await send(routes.list, { params: { siteId } })).json().total).toBe(1);
  return id;
}
