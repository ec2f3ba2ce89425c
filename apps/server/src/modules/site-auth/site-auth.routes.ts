import { authCredentialRoutes as c, authGroupRoutes as g } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SiteAuthService } from './site-auth.service.js';

export function bindSiteAuthRoutes(binder: Binder, auth: SiteAuthService): void {
  binder.bind(g.settingExists, async ({ params }, { caller }) => ({
    data: await auth.settingExists(caller.accountId, params.siteId),
  }));
  binder.bind(g.metaGroups, async ({ params, query }, { caller }) => ({
    data: await auth.metaGroups(caller.accountId, params.siteId, query.type),
  }));
  binder.bind(g.listGroups, async ({ params, query }, { caller }) =>
    auth.listGroups(caller.accountId, params.siteId, query),
  );
  binder.bind(g.createGroup, async ({ params, body }, { caller }) => ({
    data: await auth.createGroup(caller.accountId, params.siteId, body),
  }));
  binder.bind(g.updateGroup, async ({ params, body }, { caller }) => ({
    data: await auth.updateGroup(caller.accountId, params.siteId, body),
  }));
  binder.bind(g.deleteGroups, async ({ params, body }, { caller }) => {
    await auth.deleteGroups(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(g.listRules, async ({ params, query }, { caller }) =>
    auth.listRules(caller.accountId, params.siteId, query),
  );
  binder.bind(g.createRule, async ({ params, body }, { caller }) => ({
    data: await auth.createRule(caller.accountId, params.siteId, body),
  }));
  binder.bind(g.updateRule, async ({ params, body }, { caller }) => ({
    data: await auth.updateRule(caller.accountId, params.siteId, body),
  }));
  binder.bind(g.deleteRules, async ({ params, body }, { caller }) => {
    await auth.deleteRules(caller.accountId, params.siteId, body.ids);
  });

  const lists = [
    ['basic', c.listBasicAuths, c.deleteBasicAuths],
    ['key', c.listKeyAuths, c.deleteKeyAuths],
    ['jwt', c.listJwtAuths, c.deleteJwtAuths],
  ] as const;
  for (const [kind, list, remove] of lists) {
    binder.bind(
      list,
      async ({ params, query }, { caller }) =>
        auth.listCredentials(caller.accountId, params.siteId, params.groupId, kind, query) as never,
    );
    binder.bind(remove, async ({ params, body }, { caller }) => {
      await auth.deleteCredentials(caller.accountId, params.siteId, params.groupId, kind, body.ids);
    });
  }
  binder.bind(c.createBasicAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveBasic(caller.accountId, params.siteId, params.groupId, body),
  }));
  binder.bind(c.updateBasicAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveBasic(caller.accountId, params.siteId, params.groupId, body),
  }));
  binder.bind(c.createKeyAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveKey(caller.accountId, params.siteId, params.groupId, body),
  }));
  binder.bind(c.updateKeyAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveKey(caller.accountId, params.siteId, params.groupId, body),
  }));
  binder.bind(c.createJwtAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveJwt(caller.accountId, params.siteId, params.groupId, body),
  }));
  binder.bind(c.updateJwtAuth, async ({ params, body }, { caller }) => ({
    data: await auth.saveJwt(caller.accountId, params.siteId, params.groupId, body),
  }));
}
