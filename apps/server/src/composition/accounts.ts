import { ON_DEMAND_SEND_LIMIT } from '@rampart/contract';
import { bindAccountZoneRoutes } from '../modules/account-zones/account-zones.routes.js';
import { AccountZonesService } from '../modules/account-zones/account-zones.service.js';
import { createZoneScopeCheck } from '../modules/account-zones/zone-scope-check.js';
import { bindAccountRoutes } from '../modules/accounts/accounts.routes.js';
import { AccountsService } from '../modules/accounts/accounts.service.js';
import { bindL4AttackPageRoutes } from '../modules/analytics/l4-attack-page.routes.js';
import { L4AttackPageSettings } from '../modules/analytics/l4-attack-page.setting.js';
import { bindApiTokenRoutes } from '../modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService } from '../modules/api-tokens/api-tokens.service.js';
import { bindAuditRoutes } from '../modules/audit/audit.routes.js';
import { AuditService } from '../modules/audit/audit.service.js';
import { SwitchUserService } from '../modules/audit/switch-user.service.js';
import { AccountService } from '../modules/auth/account.service.js';
import { AccountPolicy } from '../modules/auth/account-policy.js';
import { bindAuthRoutes } from '../modules/auth/auth.routes.js';
import { createAuthenticator } from '../modules/auth/authenticator.js';
import { ensureRootAccounts } from '../modules/auth/bootstrap.js';
import { CredentialGuard } from '../modules/auth/credential-guard.js';
import { LoginService } from '../modules/auth/login.service.js';
import { onDemandSendLimit, type ThrottleRule } from '../modules/auth/login-throttle.js';
import { RefreshCookie, servedOverHttps } from '../modules/auth/refresh-cookie.js';
import { TokenService } from '../modules/auth/token.service.js';
import { createNodeSignatures } from '../modules/nodes/node-signature.js';
import { PermissionResolver } from '../modules/roles/permission-resolver.js';
import { bindRoleRoutes } from '../modules/roles/roles.routes.js';
import { RolesService } from '../modules/roles/roles.service.js';
import { bindSystemRoutes } from '../modules/system/system.routes.js';
import { bindSystemSettingRoutes } from '../modules/system/system-settings.routes.js';
import { type Binder, createBinder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

export interface BinderOptions {
  /** See `AppOptions.strictRouteCodes`. */
  readonly strictRouteCodes?: boolean | undefined;
  /** See `AppOptions.onDemandSendLimit`. */
  readonly onDemandSendLimit?: ThrottleRule | undefined;
}

/**
 * Who may call: the token service, sign-in and the account's own settings, the binder with its two
 * authenticators (consoles and nodes), and the routes of accounts, roles, API tokens, zones given
 * to sub-accounts, switch user and the audit log.
 */
export async function composeAccounts(ctx: AppContext, options: BinderOptions) {
  const { app, config, repos, clock, box, mailer, transactions, productName } = ctx;
  const tokens = new TokenService(
    config.tokenSecrets?.current ?? config.secret,
    repos.sessions,
    clock,
    app.log,
    config.accessTokenTtlSeconds,
    config.tokenSecrets?.previous ?? [],
  );
  const credentialGuard = new CredentialGuard(clock, repos.tickets, transactions);
  const policy = new AccountPolicy(ctx.systemSettings);
  const login = new LoginService(
    repos.accounts,
    repos.tickets,
    tokens,
    mailer,
    box,
    clock,
    app.log,
    config.secret,
    productName,
    credentialGuard,
    policy,
  );
  // The operator's switch of its customers' layer-4 attack page, which `GET {auth}/self` tells them.
  const l4AttackPage = new L4AttackPageSettings(repos.settings);
  const account = new AccountService(
    repos.accounts,
    repos.sessions,
    repos.tickets,
    tokens,
    mailer,
    box,
    clock,
    productName,
    credentialGuard,
    l4AttackPage,
    config.secret,
  );
  const createdRoots = await ensureRootAccounts(repos.accounts, config.initPassword);

  const audit = new AuditService(repos.audit);
  const nodeSignatures = createNodeSignatures(repos.nodes, box, clock);
  const binder: Binder = createBinder(
    app,
    {
      account: createAuthenticator(
        tokens,
        repos.sessions,
        new PermissionResolver(repos.roles),
        repos.accounts,
        clock,
        (id) => repos.accountZones.scopeOf(id),
        policy,
      ),
      node: nodeSignatures.authenticate,
    },
    {
      audit,
      zoneScope: createZoneScopeCheck(repos.accountZones),
      transactions,
      codes: {
        // Test tooling: each answered code appended as `<routeId> <code>` (how the `codes` lists were filled).
        recordFile: process.env.RAMPART_RECORD_ROUTE_CODES || undefined,
        strict: options.strictRouteCodes,
      },
      onDemandLimit: onDemandSendLimit(options.onDemandSendLimit ?? ON_DEMAND_SEND_LIMIT, clock),
    },
  );
  bindAccountZoneRoutes(binder, new AccountZonesService(repos.accountZones, repos.accounts, transactions));
  bindSystemRoutes(binder, ctx.system);
  bindSystemSettingRoutes(binder, ctx.systemSettings);
  const refreshCookie = new RefreshCookie(servedOverHttps(config.publicUrl));
  bindAuthRoutes(binder, login, tokens, account, refreshCookie);
  bindL4AttackPageRoutes(binder, l4AttackPage);
  bindRoleRoutes(binder, new RolesService(repos.roles));
  bindApiTokenRoutes(binder, new ApiTokensService(repos.apiTokens, repos.sessions, transactions, tokens, clock));
  bindAccountRoutes(
    binder,
    new AccountsService(repos.accounts, repos.sessions, repos.tickets, transactions, mailer, clock, productName),
    ctx.publicUrl,
  );
  bindAuditRoutes(binder, audit, new SwitchUserService(repos.accounts, tokens), refreshCookie);
  return { binder, account, createdRoots, nodeSignatures };
}
