import type {
  AlertKind,
  BlockCause,
  CacheUrlResult,
  LicenseSetting,
  LogExportFilter,
  LogExportFormat,
  LogExportStatus,
  LogExportType,
  LogPushDestination,
  LogPushFilters,
  LogPushLogStatus,
  LogPushState,
  LogPushType,
  NginxTuning,
  NodeCommandStatus,
  NodeCommandType,
  NodeFailedPort,
  NodeSystem,
  NodeUpgradeStage,
  NodeUpgradeStatus,
  ZonePortType,
} from '@rampart/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The config store's schema: one set of tables for PGlite and PostgreSQL. Change it here, then
 * run `npm run db:generate -w @rampart/server` to write the next migration into ./drizzle.
 * Migrations are expand-only within a release so that the previous release still runs on them.
 */

/** A table's own id: a 64-bit identity the database assigns. */
const rowId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** When the row was written first / last (the database's clock). */
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * The account a row belongs to (tenant isolation filters on it). `restrict`: the account cannot be
 * deleted while it owns the row; `cascade`: the row goes with the account.
 */
const ownerKey = (onDelete: 'restrict' | 'cascade') =>
  bigint('owner_id', { mode: 'number' })
    .notNull()
    .references((): AnyPgColumn => accounts.id, { onDelete });

/** Installation-wide settings as JSON documents, one row per key (`instance`, `branding`, ...). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Accounts of every tier. The owner chain (admin → client → user → sub-user) is `parentId`;
 * every query that reaches another account walks it. `account` is unique per tier within one
 * operator (`operatorId`), and so is the e-mail (case-insensitive) when set: operators, admin
 * accounts (no operator) are unique among themselves, so nothing refused reveals another tenant.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: rowId(),
    tier: text('tier').$type<'admin' | 'client' | 'user'>().notNull(),
    parentId: bigint('parent_id', { mode: 'number' }).references((): AnyPgColumn => accounts.id, {
      onDelete: 'restrict',
    }),
    /**
     * The operator the account belongs to: the top client-tier account above it (customers, their
     * sub-users, an operator's sub-accounts). Null for an operator itself and the admin tier. Set at
     * insert and never changed (accounts do not move).
     */
    operatorId: bigint('operator_id', { mode: 'number' }).references((): AnyPgColumn => accounts.id, {
      onDelete: 'restrict',
    }),
    account: text('account').notNull(),
    email: text('email').notNull().default(''),
    name: text('name').notNull(),
    status: text('status').$type<'normal' | 'pause' | 'lock' | 'expired'>().notNull().default('normal'),
    isRoot: boolean('is_root').notNull().default(false),
    dnsType: text('dns_type').notNull().default(''),
    maxLogExportTimes: integer('max_log_export_times').notNull().default(10),
    /**
     * Operators only: most zones (regions) the operator may have, 0 = unlimited (201003 beyond it).
     * Set by the platform admin until licences carry the region count.
     */
    zoneLimit: integer('zone_limit').notNull().default(0),
    /**
     * Operator sub-accounts: true once zones were assigned (`account_zones`); the account then
     * works only on its assigned zones, none left if they were all deleted.
     */
    zonesRestricted: boolean('zones_restricted').notNull().default(false),
    /** argon2id PHC string; null until the owner sets a first password through the e-mailed link. */
    passwordHash: text('password_hash'),
    login2FAType: smallint('login_2fa_type').notNull().default(0),
    /** Encrypted (secret box) base32 TOTP seed; null unless an authenticator is set up. */
    totpSecret: text('totp_secret'),
    /** Last TOTP time step accepted: a code of this step or an earlier one is a replay. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_tier_operator_account_key').on(t.tier, sql`coalesce(${t.operatorId}, 0)`, t.account),
    uniqueIndex('accounts_tier_operator_email_key')
      .on(t.tier, sql`coalesce(${t.operatorId}, 0)`, sql`lower(${t.email})`)
      .where(sql`${t.email} <> ''`),
    index('accounts_operator_idx').on(t.operatorId),
    index('accounts_parent_idx').on(t.parentId),
  ],
);

/** A login session: one refresh-token family. Revoking it ends every token of the family. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tier: text('tier').$type<'admin' | 'client' | 'user'>().notNull(),
    createdAt: createdAt(),
    /** The family dies here however often it is refreshed. */
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedReason: text('revoked_reason'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Switch user: the account that opened this session as `accountId`; null for a normal sign-in. */
    realAccountId: bigint('real_account_id', { mode: 'number' }).references((): AnyPgColumn => accounts.id, {
      onDelete: 'cascade',
    }),
  },
  (t) => [index('auth_sessions_account_idx').on(t.accountId)],
);

/** Refresh tokens, stored as SHA-256 hashes. A spent token presented again revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/**
 * Short-lived tickets (`onePassKey`): a login waiting for its second factor, or a second-factor
 * set-up confirmed by password. Stored by hash; the e-mailed code is stored as an HMAC.
 */
export type TicketPurpose = 'login' | 'setup' | 'setup-code';

export const authTickets = pgTable(
  'auth_tickets',
  {
    keyHash: text('key_hash').primaryKey(),
    /** `login` a sign-in's second step, `setup` a set-up ticket, `setup-code` a mailed phase-0 code. */
    purpose: text('purpose').$type<TicketPurpose>().notNull(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    login2FAType: smallint('login_2fa_type').notNull(),
    codeHash: text('code_hash'),
    /** A TOTP seed being set up (encrypted), between phase 1 and phase 2. */
    pendingSecret: text('pending_secret'),
    attempts: integer('attempts').notNull().default(0),
    sends: integer('sends').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('auth_tickets_account_idx').on(t.accountId)],
);

/**
 * Wrong second-factor codes of an account, one row each, the throttle's count shared by every
 * control plane. Written outside the refused call's transaction, so its rollback keeps them
 * (modules/auth/credential-guard.ts); rows older than the throttle's window are removed as new
 * ones come.
 */
export const secondFactorFailures = pgTable(
  'second_factor_failures',
  {
    id: rowId(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('second_factor_failures_account_idx').on(t.accountId, t.failedAt)],
);

/** One-time tokens of "create your password" e-mails, stored by hash. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'create'>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('password_tokens_account_idx').on(t.accountId)],
);

export type AccountRow = typeof accounts.$inferSelect;

/**
 * The operator's join token for new nodes, one live token per operator (client account). Kept
 * sealed so `GET client/node-info` can show it again, and hashed for the lookup at registration.
 */
export const nodeJoinTokens = pgTable(
  'node_join_tokens',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('node_join_tokens_hash_key').on(t.tokenHash),
    uniqueIndex('node_join_tokens_live_owner_key').on(t.ownerId).where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Zones: an operator's regions of edge nodes. Names are unique per operator. */
export const zones = pgTable(
  'zones',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    name: text('name').notNull(),
    memo: text('memo').notNull().default(''),
    /** HTTP/2 on the zone's HTTPS ports. */
    http2: boolean('http2').notNull().default(true),
    /** Status of force-SSL redirects: 301, 302, 307 or 308. */
    forceSSLRedirectCode: smallint('force_ssl_redirect_code').notNull().default(301),
    /**
     * Zone limits (docs/decisions.md "Zone limits"), per client IP and node in 60 s, 0 = off:
     * requests for hosts the node does not serve, and full TLS handshakes.
     */
    invalidDomainLimitCount: integer('invalid_domain_limit_count').notNull().default(0),
    tlsLimitCount: integer('tls_limit_count').notNull().default(0),
    /**
     * The proof of work of the zone's challenge pages, in bits (contract edge/challenge.ts: 16..24,
     * default CHALLENGE_WORK_BITS_DEFAULT written out as for reservedPorts).
     */
    challengeWorkBits: smallint('challenge_work_bits').notNull().default(21),
    /** The trust setting (routes/zone-trust.ts): proxies believed about the visitor's address, and how. */
    trustedProxies: jsonb('trusted_proxies').$type<string[]>().notNull().default([]),
    realIpHeader: text('real_ip_header').$type<'X-Forwarded-For' | 'X-Real-IP'>().notNull().default('X-Forwarded-For'),
    proxyProtocol: boolean('proxy_protocol').notNull().default(false),
    /** Whether the zone's nginx settings apply to its nodes (off: the nodes run on the defaults). */
    nginxEnabled: boolean('nginx_enabled').notNull().default(false),
    /** The worker, http, stream and custom sections, as the contract's nginxTuningSchema (checked on write). */
    nginxTuning: jsonb('nginx_tuning')
      .$type<NginxTuning>()
      .notNull()
      .default({ worker: {}, http: {}, stream: {}, custom: [] }),
    /**
     * Ports the zone's nodes keep for their hosts' services. The default is the contract's
     * DEFAULT_RESERVED_PORTS, written out because drizzle-kit reads this file without the contract
     * (a test keeps the two equal).
     */
    reservedPorts: integer('reserved_ports').array().notNull().default([22, 25, 53, 111, 123, 323]),
    /**
     * The zone's layer-4 protection (routes/firewall-l4.ts zoneL4Protection): SYN and new-connection
     * rates per source address ({ rate, burst } or null) and whether the layer-7 DROP + Blacklist
     * blocks are pushed down to the nodes' kernels.
     */
    l4SynFlood: jsonb('l4_syn_flood').$type<{ rate: number; burst: number } | null>(),
    l4NewConnections: jsonb('l4_new_connections').$type<{ rate: number; burst: number } | null>(),
    l4KernelBlocks: boolean('l4_kernel_blocks').notNull().default(false),
    /**
     * The escalation of floods to the kernel (routes/firewall-l4.ts l4EscalationSchema): refusals of one
     * address within `seconds`; null = off. Default on, ESCALATION_DEFAULT written out (see above).
     */
    l4Escalation: jsonb('l4_escalation')
      .$type<{ refusals: number; seconds: number } | null>()
      .default({ refusals: 200, seconds: 10 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('zones_owner_name_key').on(t.ownerId, t.name),
    check('zones_force_ssl_redirect_code_check', sql`${t.forceSSLRedirectCode} IN (301, 302, 307, 308)`),
    check('zones_invalid_domain_limit_count_check', sql`${t.invalidDomainLimitCount} BETWEEN 0 AND 100000`),
    check('zones_tls_limit_count_check', sql`${t.tlsLimitCount} BETWEEN 0 AND 100000`),
    check('zones_challenge_work_bits_check', sql`${t.challengeWorkBits} BETWEEN 16 AND 24`),
  ],
);

/** A zone's listen ports: every node of the zone listens on each (one generic nginx server per port). */
export const zonePorts = pgTable(
  'zone_ports',
  {
    id: rowId(),
    zoneId: bigint('zone_id', { mode: 'number' })
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    port: integer('port').notNull(),
    portType: text('port_type').$type<ZonePortType>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('zone_ports_zone_port_key').on(t.zoneId, t.port),
    check('zone_ports_port_check', sql`${t.port} BETWEEN 1 AND 65535`),
    check('zone_ports_port_type_check', sql`${t.portType} IN ('http', 'https')`),
  ],
);

/** Groups of nodes in a zone, each for one port type (7: sites, 4: layer-4 ports). */
export const nodeGroups = pgTable(
  'node_groups',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    // An empty zone takes its groups with it; a zone with nodes cannot be deleted (201001).
    zoneId: bigint('zone_id', { mode: 'number' })
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    portType: smallint('port_type').$type<7 | 4>().notNull(),
    isBackup: boolean('is_backup').notNull().default(false),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('node_groups_zone_name_key').on(t.zoneId, t.name)],
);

/**
 * Edge nodes of an operator. A node registers itself (status `uninitialized`) and is placed in a
 * zone and group by the operator. Its secret signs its requests and is kept sealed (the HMAC check
 * needs it); it is never shown again after registration.
 */
export const nodes = pgTable(
  'nodes',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    name: text('name').notNull(),
    ips: jsonb('ips').$type<string[]>().notNull(),
    version: text('version').notNull(),
    status: text('status').$type<'uninitialized' | 'initialized'>().notNull().default('uninitialized'),
    /** Set when the operator initialises the node; a zone with nodes cannot be deleted. */
    zoneId: bigint('zone_id', { mode: 'number' }).references(() => zones.id, { onDelete: 'restrict' }),
    secretSealed: text('secret_sealed').notNull(),
    appliedVersion: text('applied_version').notNull().default(''),
    /** The plane sequence the node's store holds, as reported ('' when it takes the snapshot's data plane). */
    appliedPlane: text('applied_plane').notNull().default(''),
    lastError: text('last_error').notNull().default(''),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
    /** The operator's on/off switch: an off node stays connected but its snapshot serves no site. */
    enabled: boolean('enabled').notNull().default(true),
    memo: text('memo').notNull().default(''),
    /** Whether monitoring watches the node. */
    monitor: boolean('monitor').notNull().default(true),
    /** The kind of group the node may sit in: 7 (sites) or 4 (layer-4 ports). */
    portType: smallint('port_type').$type<7 | 4>().notNull().default(7),
    /** Daily log rotation time, `HH:MM` UTC; null: on demand only. */
    logRotateTime: text('log_rotate_time'),
    /** The latest system information the agent reported (contract's nodeSystemSchema) and when. */
    system: jsonb('system').$type<NodeSystem>(),
    systemAt: timestamp('system_at', { withTimezone: true, mode: 'date' }),
    /** Where the latest upgrade stands, and the version it goes to (null when none was asked for). */
    upgradeStatus: text('upgrade_status').$type<NodeUpgradeStatus>().notNull().default('none'),
    upgradeVersion: text('upgrade_version'),
    /** Part of every cache key on the node: raised to clear the node's whole cache (cache-tasks.ts). */
    cacheEpoch: integer('cache_epoch').notNull().default(0),
    /** Ports the node could not bind at its latest report (contract's nodeFailedPortSchema); [] when all bound. */
    failedPorts: jsonb('failed_ports').$type<NodeFailedPort[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('nodes_owner_status_idx').on(t.ownerId, t.status),
    index('nodes_zone_idx').on(t.zoneId),
    check('nodes_port_type_check', sql`${t.portType} IN (4, 7)`),
    check('nodes_log_rotate_time_check', sql`${t.logRotateTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
  ],
);

/**
 * Sub-nodes: extra addresses of a node's machine, each its own DNS record (contract's
 * routes/sub-nodes.ts). An address is unique among the owner's sub-nodes (and, checked by the
 * service, not one a node of the owner reported).
 */
export const subNodes = pgTable(
  'sub_nodes',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sub_nodes_owner_ip_key').on(t.ownerId, t.ip), index('sub_nodes_node_idx').on(t.nodeId)],
);

/**
 * A URL purge or preheat (routes/cache-tasks.ts): one call's URLs, sent to nodes as one command
 * each (node_commands.task_id). A customer's purge names its site; an operator's preheat its zone;
 * an operator's purge on named nodes has neither.
 */
export const cacheTasks = pgTable(
  'cache_tasks',
  {
    id: rowId(),
    /** The operator whose nodes run the task. */
    ownerId: ownerKey('restrict'),
    kind: text('kind').$type<'purge' | 'preheat'>().notNull(),
    siteId: bigint('site_id', { mode: 'number' }).references(() => sites.id, { onDelete: 'cascade' }),
    zoneId: bigint('zone_id', { mode: 'number' }).references(() => zones.id, { onDelete: 'cascade' }),
    urls: jsonb('urls').$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('cache_tasks_site_idx').on(t.siteId, t.id),
    index('cache_tasks_zone_idx').on(t.zoneId, t.id),
    check('cache_tasks_kind_check', sql`${t.kind} IN ('purge', 'preheat')`),
  ],
);

/**
 * Commands for a node's agent (reboot, reset, log rotation, upgrade, cache clear, purge, preheat): queued
 * by the operator, handed to the agent by its command poll (sent), answered by the agent
 * (succeeded / failed), or expired when not picked up or not answered in time.
 */
export const nodeCommands = pgTable(
  'node_commands',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    type: text('type').$type<NodeCommandType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<NodeCommandStatus>().notNull().default('queued'),
    message: text('message').notNull().default(''),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** Until when the command may still be picked up (queued) or answered (sent). */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The purge or preheat task the command belongs to, and the agent's result per URL. */
    taskId: bigint('task_id', { mode: 'number' }).references(() => cacheTasks.id, { onDelete: 'cascade' }),
    results: jsonb('results').$type<CacheUrlResult[]>().notNull().default([]),
  },
  (t) => [
    index('node_commands_node_created_idx').on(t.nodeId, t.createdAt),
    index('node_commands_task_idx').on(t.taskId),
    index('node_commands_open_idx').on(t.nodeId, t.status).where(sql`${t.status} IN ('queued', 'sent')`),
  ],
);

/** Each stage of each node upgrade (queued, downloading, ..., reported or failed), per node. */
export const nodeUpgradeLogs = pgTable(
  'node_upgrade_logs',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    commandId: bigint('command_id', { mode: 'number' }).references(() => nodeCommands.id, { onDelete: 'set null' }),
    version: text('version').notNull(),
    stage: text('stage').$type<NodeUpgradeStage>().notNull(),
    message: text('message').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('node_upgrade_logs_node_created_idx').on(t.nodeId, t.createdAt)],
);

/** A node's place in a group on a DNS line. A node in a group cannot be deleted (202003). */
export const groupNodes = pgTable(
  'group_nodes',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => nodeGroups.id, { onDelete: 'cascade' }),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'restrict' }),
    line: text('line').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.nodeId, t.line] }), index('group_nodes_node_idx').on(t.nodeId)],
);

/**
 * Virtual nodes: DNS-level nodes of a zone, a name whose records are either one CNAME target or
 * references to real nodes (their IPs). Placed on a group's lines like nodes. An empty zone takes
 * its virtual nodes with it, as it takes its groups.
 */
export const virtualNodes = pgTable(
  'virtual_nodes',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    zoneId: bigint('zone_id', { mode: 'number' })
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Fixed at creation: a virtual node goes only on groups of its port type. */
    portType: smallint('port_type').$type<7 | 4>().notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('virtual_nodes_zone_name_key').on(t.zoneId, t.name),
    index('virtual_nodes_owner_idx').on(t.ownerId),
  ],
);

/**
 * A virtual node's records: `cname` (a host name in `value`) or `node` (a real node of the
 * operator, answered with its IPs). A node a record references cannot be deleted (202004).
 */
export const virtualNodeRecords = pgTable(
  'virtual_node_records',
  {
    id: rowId(),
    virtualNodeId: bigint('virtual_node_id', { mode: 'number' })
      .notNull()
      .references(() => virtualNodes.id, { onDelete: 'cascade' }),
    type: text('type').$type<'cname' | 'node'>().notNull(),
    value: text('value').notNull().default(''),
    nodeId: bigint('node_id', { mode: 'number' }).references(() => nodes.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'virtual_node_records_kind_check',
      sql`(${t.type} = 'cname' AND ${t.nodeId} IS NULL AND ${t.value} <> '') OR (${t.type} = 'node' AND ${t.nodeId} IS NOT NULL)`,
    ),
    uniqueIndex('virtual_node_records_node_key').on(t.virtualNodeId, t.nodeId).where(sql`${t.nodeId} IS NOT NULL`),
    index('virtual_node_records_node_idx').on(t.nodeId),
  ],
);

/** A virtual node's place in a group on a DNS line. A placed virtual node cannot be deleted (206001). */
export const groupVirtualNodes = pgTable(
  'group_virtual_nodes',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => nodeGroups.id, { onDelete: 'cascade' }),
    virtualNodeId: bigint('virtual_node_id', { mode: 'number' })
      .notNull()
      // NO ACTION, not RESTRICT: checked at the end of the statement, so deleting a zone can
      // cascade to both its groups' places and its virtual nodes.
      .references(() => virtualNodes.id, { onDelete: 'no action' }),
    line: text('line').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.virtualNodeId, t.line] }),
    index('group_virtual_nodes_virtual_node_idx').on(t.virtualNodeId),
  ],
);

/** Products an operator sells: a port type and the groups that serve its sites. */
export const products = pgTable(
  'products',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    name: text('name').notNull(),
    portType: smallint('port_type').$type<7 | 4>().notNull(),
    memo: text('memo').notNull().default(''),
    // How many sites the product may carry; 0 = unlimited (204003 beyond it).
    siteLimit: integer('site_limit').notNull().default(0),
    // Bytes each site may serve per calendar month (UTC); 0 = unlimited (docs/decisions.md "Traffic packages").
    monthlyTraffic: bigint('monthly_traffic', { mode: 'number' }).notNull().default(0),
    // What a site over its allowance gets: its domains answered as disabled, or capped at throttle_kbps.
    overTraffic: text('over_traffic').$type<'pause' | 'throttle'>().notNull().default('pause'),
    throttleKbps: integer('throttle_kbps').notNull().default(1024),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('products_owner_name_key').on(t.ownerId, t.name)],
);

/** The groups of a product. A group a product uses cannot be deleted (203001). */
export const productGroups = pgTable(
  'product_groups',
  {
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => nodeGroups.id, { onDelete: 'restrict' }),
    isBackup: boolean('is_backup').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.groupId] }), index('product_groups_group_idx').on(t.groupId)],
);

/**
 * Sites: an operator gives one to a customer account (tier user) on a product. Deleting a product
 * a site uses is refused (204002).
 */
export const sites = pgTable(
  'sites',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    status: text('status').$type<'normal' | 'pause' | 'limit'>().notNull().default('normal'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    forceBackup: boolean('force_backup').notNull().default(false),
    // The operator's note, never shown to the customer.
    memo: text('memo').notNull().default(''),
    // Limitations the API enforces: most domains the site may have; 0 = unlimited (401002 beyond it).
    maxDomains: integer('max_domains').notNull().default(0),
    // Most layer-4 ports the site may have; 0 = unlimited (401007 beyond it).
    maxPorts: integer('max_ports').notNull().default(0),
    // Part of every cache key of the site at the edge; clearing the site's cache increments it.
    cacheGeneration: integer('cache_generation').notNull().default(1),
    // Set by the traffic check when the site went over its monthly allowance ('pause' also sets the
    // status 'limit'); cleared when lifted. `trafficLiftedMonth` ('YYYY-MM') is the month the
    // operator lifted it in: the check leaves the site alone for the rest of that month.
    trafficRestriction: text('traffic_restriction').$type<'pause' | 'throttle'>(),
    trafficLiftedMonth: text('traffic_lifted_month'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sites_owner_idx').on(t.ownerId),
    index('sites_user_idx').on(t.userId),
    index('sites_product_idx').on(t.productId),
  ],
);

/**
 * Extra traffic an operator sold a customer's site for one calendar month (routes/traffic.ts), on
 * top of the product's monthly allowance. Goes with the site.
 */
export const extraTrafficPlans = pgTable(
  'extra_traffic_plans',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('extra_traffic_plans_owner_idx').on(t.ownerId, t.id),
    index('extra_traffic_plans_site_month_idx').on(t.siteId, t.year, t.month),
  ],
);

/**
 * Sub-accounts a customer gave access to one of its sites (`user/site/users`): they see and manage
 * the site like its holder. Given back to another customer, a site loses these rows.
 */
export const siteUsers = pgTable(
  'site_users',
  {
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.accountId] }), index('site_users_account_idx').on(t.accountId)],
);

/** Announcements an operator publishes to its customers. */
export const announcements = pgTable(
  'announcements',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    running: boolean('running').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('announcements_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * Certificates a customer uploaded to a site. The chain is public data; the private key is sealed
 * with the installation secret (AES-GCM, see SecretBox) and only opened to build node snapshots.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    memo: text('memo').notNull().default(''),
    certPem: text('cert_pem').notNull(),
    keySealed: text('key_sealed').notNull(),
    names: jsonb('names').$type<string[]>().notNull(),
    issuer: text('issuer').notNull(),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }).notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('certificates_site_idx').on(t.siteId)],
);

/**
 * Cache rules of a site (packages/contract/src/routes/site-cache.ts): tried by priority, then id.
 * `values` were checked against the contract's patterns when written.
 */
export const siteCacheRules = pgTable(
  'site_cache_rules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    scope: text('scope').$type<'all' | 'directory' | 'path' | 'suffix' | 'fileType'>().notNull(),
    values: jsonb('values').$type<string[]>().notNull().default([]),
    ttl: integer('ttl').notNull(),
    queryString: text('query_string').$type<'ignore' | 'include'>().notNull(),
    bypass: boolean('bypass').notNull().default(false),
    respectOrigin: boolean('respect_origin').notNull().default(true),
    priority: integer('priority').notNull().default(0),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('site_cache_rules_site_idx').on(t.siteId)],
);

/**
 * Per-site settings with one value each (packages/contract/src/routes/site-settings.ts): HTTP
 * compression and the language of the edge's own pages. No row = the defaults.
 */
export const siteSettings = pgTable('site_settings', {
  siteId: bigint('site_id', { mode: 'number' })
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  gzipEnabled: boolean('gzip_enabled').notNull().default(false),
  gzipTypes: jsonb('gzip_types').$type<string[]>().notNull().default([]),
  gzipMinLength: integer('gzip_min_length').notNull().default(1024),
  gzipUpdatedAt: timestamp('gzip_updated_at', { withTimezone: true, mode: 'date' }),
  errorPageLanguage: text('error_page_language').$type<'en_US' | 'zh_CN' | 'zh_TW'>().notNull().default('en_US'),
});

/** Bandwidth rate limits of a site: a path pattern and a cap in KB/s. */
export const siteRateRules = pgTable(
  'site_rate_rules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    rate: integer('rate').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('site_rate_rules_site_idx').on(t.siteId)],
);

/**
 * The site firewall's rules, one table for every kind (routes/firewall-lists.ts): `kind` says which
 * list a rule is in and `rule` holds that kind's fields as the contract's input schema output them
 * (ips, url, methods, blockType …), validated before they are stored. One table keeps a site's
 * rule set one read for the edge projection and one place for the limits.
 */
export const siteFirewallRules = pgTable(
  'site_firewall_rules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    kind: text('kind')
      .$type<
        | 'whitelist'
        | 'blacklist'
        | 'userAgent'
        | 'header'
        | 'geo'
        | 'intervalLimit'
        | 'secondLimit'
        | 'antiCC'
        | 'abuseIP'
      >()
      .notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('site_firewall_rules_site_kind_idx').on(t.siteId, t.kind, t.id)],
);

/** A site's own error pages, one per status, served verbatim as text/html by the edge. */
export const siteErrorPages = pgTable(
  'site_error_pages',
  {
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.status] })],
);

/**
 * Domains of a site, each one customer's claim of its name. A name is unique in its site; among
 * live domains (enabled, and proved or waived: DOMAIN_PROOF_STATUS) it is unique in the whole
 * installation (401001), enforced by the partial unique index so two writers cannot both win.
 */
export const domains = pgTable(
  'domains',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    scheme: smallint('scheme').$type<0 | 1>().notNull().default(0),
    hashType: smallint('hash_type').$type<0 | 1>().notNull().default(0),
    hostName: text('host_name').notNull().default(''),
    forceSSL: boolean('force_ssl').notNull().default(false),
    // A certificate in use cannot be deleted (the service names the domains first).
    certificateId: bigint('certificate_id', { mode: 'number' }).references(() => certificates.id, {
      onDelete: 'restrict',
    }),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    // The label of the domain's CNAME target `<label>.<the operator's CNAME domain>`: 16 hex digits
    // from a strong random source, made by the database for every new row (existing rows included).
    cnameLabel: text('cname_label').notNull().default(sql`substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)`),
    // 0 = not checked, 1 = the name resolves to the target, 2 = it does not (DOMAIN_CNAME_STATUS).
    cnameStatus: smallint('cname_status').$type<0 | 1 | 2>().notNull().default(0),
    cnameCheckedAt: timestamp('cname_checked_at', { withTimezone: true, mode: 'date' }),
    // The operator turned the publication of this CNAME target off (`dns/cname`): Rampart removes
    // its records at the DNS provider and writes none until it is turned on again.
    cnameDisabled: boolean('cname_disabled').notNull().default(false),
    // Proof of control of the name: 0 pending, 1 proved, 2 waived, 3 lost (DOMAIN_PROOF_STATUS).
    proofStatus: smallint('proof_status').$type<0 | 1 | 2 | 3>().notNull().default(0),
    // The value of the TXT record `_rampart-challenge.<name>` that proves this claim: 32 hex digits
    // from a strong random source, one per row.
    proofToken: text('proof_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    proofCheckedAt: timestamp('proof_checked_at', { withTimezone: true, mode: 'date' }),
    // Automatic certificate for the domain (a flag; issuance is not built yet); 401004 over the limit.
    autoSSL: boolean('auto_ssl').notNull().default(false),
    // Reach the origin on the port the client used (listeners of the scheme's protocol).
    portMap: boolean('port_map').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('domains_site_name_key').on(t.siteId, t.name),
    uniqueIndex('domains_cname_label_key').on(t.cnameLabel),
    uniqueIndex('domains_live_name_key').on(t.name).where(sql`${t.enabled} AND ${t.proofStatus} IN (1, 2)`),
    index('domains_name_idx').on(t.name),
    index('domains_certificate_idx').on(t.certificateId),
  ],
);

/** Upstreams (origins) of a domain, in the order the customer gave them. */
export const domainUpstreams = pgTable(
  'domain_upstreams',
  {
    id: rowId(),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    port: integer('port').notNull(),
    weight: smallint('weight').notNull().default(1),
    backup: boolean('backup').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [index('domain_upstreams_domain_idx').on(t.domainId)],
);

/**
 * A domain's own access rules (packages/contract/src/routes/domain-access.ts): its anti-referer
 * (`referer`) and anti-header (`header`) lists, each kind's fields as its contract schema outputs
 * them, as site_firewall_rules holds the site's.
 */
export const domainAccessRules = pgTable(
  'domain_access_rules',
  {
    id: rowId(),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'referer' | 'header'>().notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('domain_access_rules_domain_kind_idx').on(t.domainId, t.kind, t.id)],
);

/**
 * The block list (packages/contract/src/routes/block-list.ts): an address a node's DROP + Blacklist
 * rule blocked for a site, one row per site, node and address (a node reporting it again renews
 * it). Rows are the edge's, not a person's: no audit trigger (an attack would flood the operation
 * log); unblocking is an audited call. `rule_id` has no foreign key: a rule may be deleted while
 * its block lasts, and a report may name a rule deleted since (the list shows it as gone).
 */
export const blockedIps = pgTable(
  'blocked_ips',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    cause: text('cause').$type<BlockCause>().notNull(),
    ruleId: bigint('rule_id', { mode: 'number' }).notNull(),
    blockedAt: timestamp('blocked_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('blocked_ips_site_node_ip_key').on(t.siteId, t.nodeId, t.ip),
    index('blocked_ips_expires_idx').on(t.expiresAt),
    index('blocked_ips_node_idx').on(t.nodeId),
  ],
);

/**
 * An operator's reputation list (packages/contract/src/routes/firewall-reputation.ts): addresses
 * and CIDR blocks with a score, for its sites' IP trust protection. `ip` is the entry's normalised
 * text (unique per operator, so two spellings of one block are one entry); `family`, `range_from`
 * and `range_to` are the addresses it covers (hex, 8 digits for IPv4, 32 for IPv6, compared in the
 * "C" collation), for the list's address filter and order.
 */
export const abuseIps = pgTable(
  'abuse_ips',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    ip: text('ip').notNull(),
    family: smallint('family').$type<4 | 6>().notNull(),
    rangeFrom: text('range_from').notNull(),
    rangeTo: text('range_to').notNull(),
    score: smallint('score').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('abuse_ips_owner_ip_key').on(t.ownerId, t.ip),
    index('abuse_ips_owner_range_idx').on(t.ownerId, t.family, t.rangeFrom),
    index('abuse_ips_owner_updated_idx').on(t.ownerId, t.updatedAt),
    check('abuse_ips_score_range', sql`${t.score} BETWEEN 1 AND 100`),
  ],
);

/**
 * One row per operator whose reputation list was ever written: `revision` grows with every change
 * of the list in the change's own transaction, so the built file (cached per process) is rebuilt
 * when, and only when, the list changed; writers lock the row to change the list one at a time.
 */
export const abuseIpLists = pgTable('abuse_ip_lists', {
  ownerId: bigint('owner_id', { mode: 'number' })
    .primaryKey()
    .references((): AnyPgColumn => accounts.id, { onDelete: 'cascade' }),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * Layer-4 ports of a site (packages/contract/src/routes/site-ports.ts). A site with ports cannot be
 * deleted (205004, the restrict below); the service checks that first to name the right code.
 */
export const sitePorts = pgTable(
  'site_ports',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'restrict' }),
    port: integer('port').notNull(),
    protocol: text('protocol').$type<'tcp' | 'udp' | 'both'>().notNull().default('tcp'),
    hashType: smallint('hash_type').$type<0 | 1>().notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('site_ports_site_port_key').on(t.siteId, t.port),
    index('site_ports_port_idx').on(t.port),
    check('site_ports_port_check', sql`${t.port} BETWEEN 1 AND 65535`),
    check('site_ports_protocol_check', sql`${t.protocol} IN ('tcp', 'udp', 'both')`),
  ],
);

/**
 * The site firewall's layer-4 rules (routes/firewall-l4.ts), each on one of the site's layer-4 ports:
 * a deleted port takes its rules. `rule` holds the kind's fields but the port and the memo.
 */
export const siteL4Rules = pgTable(
  'site_l4_rules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    portId: bigint('port_id', { mode: 'number' })
      .notNull()
      .references(() => sitePorts.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'l4Whitelist' | 'l4Blacklist' | 'position' | 'limitConn'>().notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('site_l4_rules_site_kind_idx').on(t.siteId, t.kind, t.id),
    index('site_l4_rules_port_idx').on(t.portId),
    check('site_l4_rules_kind_check', sql`${t.kind} IN ('l4Whitelist', 'l4Blacklist', 'position', 'limitConn')`),
  ],
);

/** Upstreams of a layer-4 port, in the order the customer gave them. */
export const sitePortUpstreams = pgTable(
  'site_port_upstreams',
  {
    id: rowId(),
    portId: bigint('port_id', { mode: 'number' })
      .notNull()
      .references(() => sitePorts.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    port: integer('port').notNull(),
    weight: smallint('weight').notNull().default(1),
    backup: boolean('backup').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [index('site_port_upstreams_port_idx').on(t.portId)],
);

/**
 * Monitor nodes: registered nodes of an operator chosen to probe others (a dedicated machine that
 * stays uninitialised, or an edge node that also probes). Leaving the node deleted takes it along.
 */
export const monitorNodes = pgTable(
  'monitor_nodes',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    memo: text('memo').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('monitor_nodes_node_key').on(t.nodeId), index('monitor_nodes_owner_idx').on(t.ownerId)],
);

/** Monitor groups: which monitor nodes probe which initialised nodes, how often and how strictly. */
export const monitorGroups = pgTable(
  'monitor_groups',
  {
    id: rowId(),
    ownerId: ownerKey('restrict'),
    name: text('name').notNull(),
    memo: text('memo').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    intervalSeconds: integer('interval_seconds').notNull(),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    failureThreshold: integer('failure_threshold').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('monitor_groups_owner_name_key').on(t.ownerId, t.name)],
);

/** The monitor nodes of a monitor group. */
export const monitorGroupMonitors = pgTable(
  'monitor_group_monitors',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => monitorGroups.id, { onDelete: 'cascade' }),
    monitorId: bigint('monitor_id', { mode: 'number' })
      .notNull()
      .references(() => monitorNodes.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.monitorId] }),
    index('monitor_group_monitors_monitor_idx').on(t.monitorId),
  ],
);

/** A monitor group's targets with the state the monitors last agreed on and since when. */
export const monitorTargets = pgTable(
  'monitor_targets',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => monitorGroups.id, { onDelete: 'cascade' }),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    state: text('state').$type<'up' | 'down' | 'unknown'>().notNull().default('unknown'),
    since: timestamp('since', { withTimezone: true, mode: 'date' }),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    reason: text('reason').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.nodeId] }),
    index('monitor_targets_node_idx').on(t.nodeId),
    check('monitor_targets_state_check', sql`${t.state} IN ('up', 'down', 'unknown')`),
  ],
);

/** Each monitor's running count of failed probes of a target, to decide when the monitors agree. */
export const monitorProbeStates = pgTable(
  'monitor_probe_states',
  {
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => monitorGroups.id, { onDelete: 'cascade' }),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    monitorId: bigint('monitor_id', { mode: 'number' })
      .notNull()
      .references(() => monitorNodes.id, { onDelete: 'cascade' }),
    failures: integer('failures').notNull().default(0),
    reason: text('reason').notNull().default(''),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.nodeId, t.monitorId] })],
);

/** A target's state transitions, kept as history. */
export const monitorEvents = pgTable(
  'monitor_events',
  {
    id: rowId(),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => monitorGroups.id, { onDelete: 'cascade' }),
    nodeId: bigint('node_id', { mode: 'number' })
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    state: text('state').$type<'up' | 'down'>().notNull(),
    reason: text('reason').notNull().default(''),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('monitor_events_target_idx').on(t.groupId, t.nodeId, t.at)],
);

/**
 * Site modules (packages/contract/src/routes/site-modules.ts): named sets of one type per site.
 * `settings` holds the type's settings, checked against the contract's schema when written (a WAF
 * module's exclusions included: they are replaced with the module, routes/site-module-waf.ts).
 */
export const siteModules = pgTable(
  'site_modules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    type: text('type')
      .$type<'customHeader' | 'urlRedirect' | 'cors' | 'proxyRewrite' | 'luaAcl' | 'tokenAuth' | 'waf'>()
      .notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('site_modules_site_type_name_key').on(t.siteId, t.type, t.name)],
);

/** Rules of URL-redirect, proxy-rewrite, Lua ACL and token-auth modules; `site_id` lets the per-site limit count in one index. */
export const siteModuleRules = pgTable(
  'site_module_rules',
  {
    id: rowId(),
    moduleId: bigint('module_id', { mode: 'number' })
      .notNull()
      .references(() => siteModules.id, { onDelete: 'cascade' }),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    type: text('type').$type<'urlRedirect' | 'proxyRewrite' | 'luaAcl' | 'tokenAuth'>().notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('site_module_rules_module_idx').on(t.moduleId),
    index('site_module_rules_site_type_idx').on(t.siteId, t.type),
  ],
);

/** A site's auth groups (packages/contract/src/routes/site-auth.ts). */
export const siteAuthGroups = pgTable(
  'site_auth_groups',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('site_auth_groups_site_name_key').on(t.siteId, t.name)],
);

/**
 * The credentials of auth groups, one table for the three kinds: `name` is the basic user name or
 * the key/JWT credential's name (unique per group and kind), `data` the kind's fields
 * (site-auth.repository.ts): a basic password only as its salted HMAC, a JWT secret sealed.
 */
export const siteAuthCredentials = pgTable(
  'site_auth_credentials',
  {
    id: rowId(),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => siteAuthGroups.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'basic' | 'key' | 'jwt'>().notNull(),
    name: text('name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('site_auth_credentials_group_kind_name_key').on(t.groupId, t.kind, t.name)],
);

/**
 * URL rules binding an auth group to the requests it protects. A used group cannot be deleted
 * (701001; `no action` rather than `restrict` so a site's deletion, which cascades to both, goes through).
 */
export const siteAuthRules = pgTable(
  'site_auth_rules',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => siteAuthGroups.id, { onDelete: 'no action' }),
    name: text('name').notNull(),
    match: text('match').$type<'exact' | 'prefix' | 'regex'>().notNull(),
    path: text('path').notNull(),
    /** The site's domains the rule covers; empty: all of them. */
    domainIds: jsonb('domain_ids').$type<number[]>().notNull().default([]),
    priority: integer('priority').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('site_auth_rules_site_idx').on(t.siteId), index('site_auth_rules_group_idx').on(t.groupId)],
);

/**
 * Which module of each type a domain uses (at most one per type). A bound module cannot be
 * deleted (restrict; the service names the domains); deleting the domain drops its bindings.
 */
export const domainModules = pgTable(
  'domain_modules',
  {
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    type: text('type')
      .$type<'customHeader' | 'urlRedirect' | 'cors' | 'proxyRewrite' | 'luaAcl' | 'tokenAuth' | 'waf'>()
      .notNull(),
    moduleId: bigint('module_id', { mode: 'number' })
      .notNull()
      .references(() => siteModules.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.type] }), index('domain_modules_module_idx').on(t.moduleId)],
);

/**
 * The audit log: one row per state-changing console call that reached its handler, written before
 * the handler runs (outcome `pending`) and completed after it. Rows are never updated otherwise
 * and never deleted through the API. `visibleTo` lists the actor and every account above it on the
 * owner chain: the accounts that may read the row.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: rowId(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    accountName: text('account_name').notNull(),
    tier: text('tier').$type<'admin' | 'client' | 'user'>().notNull(),
    realAccountId: bigint('real_account_id', { mode: 'number' }),
    realAccountName: text('real_account_name'),
    visibleTo: bigint('visible_to', { mode: 'number' }).array().notNull(),
    action: text('action').notNull(),
    method: text('method').notNull(),
    url: text('url').notNull(),
    target: jsonb('target').$type<Record<string, unknown>>().notNull(),
    changes: jsonb('changes').$type<unknown>(),
    ip: text('ip').notNull(),
    reqId: text('req_id').notNull(),
    pending: boolean('pending').notNull().default(true),
    status: integer('status').notNull().default(0),
    code: integer('code').notNull().default(0),
    /** The transaction of the call (`txid_current()`): its row changes are `audit_row_changes` of the same id. */
    txId: bigint('tx_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_visible_idx').using('gin', t.visibleTo),
    index('audit_logs_created_idx').on(t.createdAt, t.id),
  ],
);
export type AuditLogRow = typeof auditLogs.$inferSelect;

/**
 * Before and after values of every row an audited call changed, written by the `audit_row_change`
 * trigger (migration audit_row_triggers) in the call's own transaction while it runs with
 * `rampart.audit = on`; secret-named fields are `[redacted]`, long values cut. Only the changed
 * columns of an update are kept.
 */
export const auditRowChanges = pgTable(
  'audit_row_changes',
  {
    id: rowId(),
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
    tableName: text('table_name').notNull(),
    op: text('op').$type<'insert' | 'update' | 'delete'>().notNull(),
    rowId: text('row_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_row_changes_tx_idx').on(t.txId)],
);

/**
 * Roles: named sets of permission keys owned by an account and given to its
 * sub-accounts. Keys are those of `@rampart/contract`'s permissions; the owner holds them all.
 */
export const roles = pgTable(
  'roles',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('roles_owner_name_key').on(t.ownerId, t.name)],
);

/** The role of a sub-account (at most one). Deleting the role leaves the account without keys. */
export const accountRoles = pgTable(
  'account_roles',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    roleId: bigint('role_id', { mode: 'number' })
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [index('account_roles_role_idx').on(t.roleId)],
);

/**
 * Zones assigned to an operator's sub-account (`PUT client/{clientId}/zones`): with rows, the
 * sub-account works only on those zones and their nodes; without, on every zone of its operator.
 */
export const accountZones = pgTable(
  'account_zones',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    zoneId: bigint('zone_id', { mode: 'number' })
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.zoneId] }), index('account_zones_zone_idx').on(t.zoneId)],
);

/**
 * API tokens: a secret (stored as its SHA-256) that mints access tokens of `lifetimeS` for its
 * owner, limited to `permissions` when set. Each token has its own session (`sessionId`), which
 * the minted access tokens name: deleting the token deletes the session, so they stop at once.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: rowId(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    lifetimeS: integer('lifetime_s').notNull(),
    permissions: jsonb('permissions').$type<string[] | null>(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_key').on(t.tokenHash),
    uniqueIndex('api_tokens_session_key').on(t.sessionId),
    index('api_tokens_account_idx').on(t.accountId, t.createdAt),
  ],
);

/** Raw bytes (`bytea`): node-postgres and PGlite both hand back a Uint8Array / Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * An operator's logo set (one per operator): the texts here, the images in `operator_logo_images`.
 * Served to the operator's customers' login pages by `GET {auth}/logo?operator=`.
 */
export const operatorLogos = pgTable('operator_logos', {
  id: rowId(),
  ownerId: ownerKey('cascade').unique(),
  title: text('title').notNull().default(''),
  subTitle: text('sub_title').notNull().default(''),
  description: text('description').notNull().default(''),
  copyright: text('copyright').notNull().default(''),
  version: text('version').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The images of a logo set, one row per filled slot; the type was checked by its magic bytes. */
export const operatorLogoImages = pgTable(
  'operator_logo_images',
  {
    logoId: bigint('logo_id', { mode: 'number' })
      .notNull()
      .references(() => operatorLogos.id, { onDelete: 'cascade' }),
    slot: text('slot').notNull(),
    mime: text('mime').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.logoId, t.slot] })],
);

/**
 * Dashboard layouts (packages/contract/src/routes/dashboard.ts): the widgets an account arranged,
 * checked against the contract's schema when saved. An account without a row sees its tier's default.
 */
export const dashboards = pgTable('dashboards', {
  accountId: bigint('account_id', { mode: 'number' })
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  widgets: jsonb('widgets').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Log sampling (docs/decisions.md "Log sampling"): for each minute in which a site's passed
 * requests were sampled for the logs because they arrived faster than the log store keeps up, how
 * many arrived and how many were kept (the log search shows "1 in seen/kept"). Summed by every
 * control plane that sampled them; pruned with the raw events.
 */
export const logSamples = pgTable(
  'log_samples',
  {
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The minute's start, unix seconds. */
    minute: bigint('minute', { mode: 'number' }).notNull(),
    seen: bigint('seen', { mode: 'number' }).notNull(),
    kept: bigint('kept', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.minute] }), index('log_samples_minute_idx').on(t.minute)],
);

/**
 * Log export files (packages/contract/src/routes/log-exports.ts; docs/decisions.md "Log export
 * files"): the account that asked, what it covers (the log search's filter) and how the job got on
 * with it. The file is `DATA_DIR/log-exports/<id>` while it is done; `file_name` is the name the
 * download carries.
 */
export const logExports = pgTable(
  'log_exports',
  {
    id: rowId(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').$type<LogExportType>().notNull(),
    format: text('format').$type<LogExportFormat>().notNull(),
    gzip: boolean('gzip').notNull(),
    filter: jsonb('filter').$type<LogExportFilter>().notNull(),
    status: text('status').$type<LogExportStatus>().notNull().default('queued'),
    /** Records the job counted when it started, and wrote so far. */
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    records: bigint('records', { mode: 'number' }).notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    fileName: text('file_name').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('log_exports_account_idx').on(t.accountId, t.id),
    index('log_exports_status_idx').on(t.status, t.id),
    check('log_exports_type_check', sql`${t.type} IN ('access', 'waf')`),
    check('log_exports_format_check', sql`${t.format} IN ('csv', 'jsonl')`),
    check('log_exports_status_check', sql`${t.status} IN ('queued', 'running', 'done', 'failed', 'expired')`),
  ],
);

/**
 * Log push events (contract routes/log-push.ts; docs/decisions.md "Log push"): push targets of a
 * customer (`tier` user, `account_id` the customer) or of an operator (`tier` client, `account_id`
 * the operator's root account). `operator_id` is the operator above the owner (the operator's
 * delivery log list covers its customers' events by it). The destination without its secrets is
 * `destination`; the secrets are `secrets`, sealed (SecretBox). The cursor is where delivery is:
 * the analytics store's batch ledger order (`cursor_received_at`, `cursor_batch`, `cursor_request`)
 * for the access and WAF logs, the audit row id (`cursor_audit`) for the audit log; it moves only
 * once a batch is delivered, so a restart resends the batch in flight (at-least-once).
 */
export const logPushEvents = pgTable(
  'log_push_events',
  {
    id: rowId(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tier: text('tier').$type<'user' | 'client'>().notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    type: text('type').$type<LogPushType>().notNull(),
    siteIds: jsonb('site_ids').$type<number[]>().notNull(),
    zoneIds: jsonb('zone_ids').$type<number[]>().notNull(),
    filters: jsonb('filters').$type<LogPushFilters>().notNull(),
    destination: jsonb('destination').$type<Omit<LogPushDestination, 'hasSecret'>>().notNull(),
    secrets: text('secrets'),
    state: text('state').$type<LogPushState>().notNull().default('active'),
    lastError: text('last_error'),
    lastDeliveredAt: timestamp('last_delivered_at', { withTimezone: true, mode: 'date' }),
    cursorReceivedAt: bigint('cursor_received_at', { mode: 'number' }).notNull().default(0),
    cursorBatch: text('cursor_batch').notNull().default(''),
    cursorRequest: text('cursor_request').notNull().default(''),
    cursorAudit: bigint('cursor_audit', { mode: 'number' }).notNull().default(0),
    /** The batch in flight: its attempts so far, when the next is due, since when it fails. */
    attempt: integer('attempt').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('log_push_events_account_idx').on(t.accountId, t.id),
    check('log_push_events_tier_check', sql`${t.tier} IN ('user', 'client')`),
    check('log_push_events_type_check', sql`${t.type} IN ('access', 'waf', 'audit')`),
    check('log_push_events_state_check', sql`${t.state} IN ('active', 'retrying', 'dead')`),
  ],
);

/**
 * Manual pushes (`logPush/manuallyPush`): a time range of event times sent again to an event,
 * after the batch in flight, through the same batches; `cursor_*` is the keyset position (event
 * time, request id) of the last record delivered. Done ones are deleted.
 */
export const logPushManuals = pgTable(
  'log_push_manuals',
  {
    id: rowId(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => logPushEvents.id, { onDelete: 'cascade' }),
    startTs: bigint('start_ts', { mode: 'number' }).notNull(),
    endTs: bigint('end_ts', { mode: 'number' }).notNull(),
    cursorTs: bigint('cursor_ts', { mode: 'number' }).notNull().default(-1),
    cursorMs: integer('cursor_ms').notNull().default(0),
    cursorRequest: text('cursor_request').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('log_push_manuals_event_idx').on(t.eventId, t.id)],
);

/** The delivery log: one row per batch attempt's outcome (`logPush/logs`). */
export const logPushLogs = pgTable(
  'log_push_logs',
  {
    id: rowId(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => logPushEvents.id, { onDelete: 'cascade' }),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }),
    eventName: text('event_name').notNull(),
    status: text('status').$type<LogPushLogStatus>().notNull(),
    attempt: integer('attempt').notNull(),
    records: integer('records').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    error: text('error'),
    rangeStart: timestamp('range_start', { withTimezone: true, mode: 'date' }),
    rangeEnd: timestamp('range_end', { withTimezone: true, mode: 'date' }),
    manual: boolean('manual').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('log_push_logs_account_idx').on(t.accountId, t.id),
    index('log_push_logs_operator_idx').on(t.operatorId, t.id),
    index('log_push_logs_event_idx').on(t.eventId, t.id),
    index('log_push_logs_created_idx').on(t.createdAt),
    check('log_push_logs_status_check', sql`${t.status} IN ('delivered', 'retrying', 'dead')`),
  ],
);

/**
 * Log exports each account created per UTC day, for the daily quota (`maxLogExportTimes`): kept
 * apart from the exports so that deleting one gives no quota back.
 */
export const logExportDays = pgTable(
  'log_export_days',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The UTC day, as YYYY-MM-DD. */
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/**
 * Alerts raised for an operator and, for the kinds about a customer's sites, for that customer
 * (modules/alerts). The owner is the operator; `dedupKey` makes raising the same alert twice a no-op
 * (one per node per state change, one per site per spike window). Written by the control plane,
 * not by a person, so not audited.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    customerId: bigint('customer_id', { mode: 'number' }).references((): AnyPgColumn => accounts.id, {
      onDelete: 'cascade',
    }),
    kind: text('kind').$type<AlertKind>().notNull(),
    /** What it is about, e.g. `node:12`, `site:3` (the last alert of a subject decides node up/down). */
    subject: text('subject').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull(),
    dedupKey: text('dedup_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alerts_dedup_idx').on(t.ownerId, t.dedupKey),
    index('alerts_subject_idx').on(t.ownerId, t.subject, t.id),
  ],
);

/** One delivery of an alert to one recipient, retried by the alerts job until sent or failed. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: rowId(),
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<'email' | 'telegram'>().notNull(),
    /** An e-mail address or a Telegram chat id. */
    target: text('target').notNull(),
    language: text('language').$type<'en_US' | 'zh_CN' | 'zh_TW'>().notNull(),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('alert_deliveries_alert_idx').on(t.alertId),
    check('alert_deliveries_channel_check', sql`${t.channel} IN ('email', 'telegram')`),
    check('alert_deliveries_status_check', sql`${t.status} IN ('pending', 'sent', 'failed')`),
  ],
);

/**
 * The DNS names Rampart has written at the operator's provider (modules/dns/dns-reconciler.ts):
 * the reconciler reads and changes only these and the ones it is about to write, so a record of the
 * same zone that Rampart did not create is never touched. A name leaves once its sets are deleted.
 */
export const dnsPublishedNames = pgTable(
  'dns_published_names',
  {
    ownerId: ownerKey('cascade'),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.name] })],
);

/**
 * Record changes the operator's provider refused or failed (`dns/unprocessed`): the last change
 * tried for a name, type and line, the provider's error, and when the reconciler tries again
 * (exponential backoff). The row goes once the provider holds what Rampart wants there.
 */
export const dnsUnprocessed = pgTable(
  'dns_unprocessed',
  {
    id: rowId(),
    ownerId: ownerKey('cascade'),
    name: text('name').notNull(),
    type: text('type').$type<'A' | 'AAAA' | 'CNAME'>().notNull(),
    line: text('line').notNull(),
    action: text('action').$type<'upsert' | 'delete'>().notNull(),
    ttl: integer('ttl').notNull(),
    values: jsonb('values').$type<string[]>().notNull().default([]),
    error: text('error').notNull(),
    attempts: integer('attempts').notNull().default(1),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dns_unprocessed_owner_record_key').on(t.ownerId, t.name, t.type, t.line),
    check('dns_unprocessed_action_check', sql`${t.action} IN ('upsert', 'delete')`),
  ],
);

/**
 * Which control-plane process reconciles an operator's DNS records until when (a lease: only one
 * at a time across processes on one PostgreSQL), and whether a full re-publication was asked for.
 */
export const dnsReconcileLeases = pgTable('dns_reconcile_leases', {
  ownerId: bigint('owner_id', { mode: 'number' })
    .primaryKey()
    .references((): AnyPgColumn => accounts.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true, mode: 'date' }).notNull(),
  lastPassAt: timestamp('last_pass_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Operators' licences (routes/licenses.ts): online ones the vendor (admin) drafts and issues, and
 * offline ones the operator activated here (`key` holds the signed document). The operator's
 * licence is the one issued last; without one nothing is limited (docs/decisions.md "Licences").
 */
export const licenses = pgTable(
  'licenses',
  {
    id: rowId(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    source: text('source').$type<'online' | 'offline'>().notNull(),
    settings: jsonb('settings').$type<LicenseSetting>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }),
    key: text('key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('licenses_operator_issued_idx').on(t.operatorId, t.issuedAt),
    check('licenses_source_check', sql`${t.source} IN ('online', 'offline')`),
  ],
);

/**
 * The vendor's offline licences (admin tier): what it signs for an installation that never reaches
 * it. `key` is the signed document, null until issued and after its registration is taken back.
 */
export const offlineLicenses = pgTable('offline_licenses', {
  id: rowId(),
  ownerId: ownerKey('cascade'),
  customer: text('customer').notNull(),
  installId: text('install_id').notNull(),
  /** The operator's sign-in account on that installation ('' on a record made before licences named one). */
  operator: text('operator').notNull().default(''),
  settings: jsonb('settings').$type<LicenseSetting>().notNull(),
  key: text('key'),
  issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Automatic certificates (routes/auto-certificates.ts): one row per domain with auto SSL on, made
 * by the issuing job. `certificateId` is the issued certificate (a row of `certificates`, assigned
 * to the domain; a renewal replaces its chain in place, so nodes take it like an upload).
 * `nextAttemptAt` is the renewal or the retry; `leaseUntil` holds the row for the one process
 * issuing it (docs/decisions.md "Automatic certificates").
 */
export const autoCertificates = pgTable(
  'auto_certificates',
  {
    id: rowId(),
    siteId: bigint('site_id', { mode: 'number' })
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'issuing' | 'valid' | 'failed'>().notNull().default('pending'),
    certificateId: bigint('certificate_id', { mode: 'number' }).references(() => certificates.id, {
      onDelete: 'set null',
    }),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error').notNull().default(''),
    failures: integer('failures').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('auto_certificates_domain_idx').on(t.domainId),
    index('auto_certificates_site_idx').on(t.siteId),
    index('auto_certificates_due_idx').on(t.nextAttemptAt),
    check('auto_certificates_status_check', sql`${t.status} IN ('pending', 'issuing', 'valid', 'failed')`),
  ],
);

/** Every issuing attempt of an automatic certificate, with its outcome. */
export const autoCertificateAttempts = pgTable(
  'auto_certificate_attempts',
  {
    id: rowId(),
    autoCertificateId: bigint('auto_certificate_id', { mode: 'number' })
      .notNull()
      .references(() => autoCertificates.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ok: boolean('ok'),
    error: text('error').notNull().default(''),
  },
  (t) => [index('auto_certificate_attempts_cert_idx').on(t.autoCertificateId, t.id)],
);

/** ACME HTTP-01 challenges being answered: pushed to the nodes of the domain (data plane `acmeChallenges`). */
export const acmeChallenges = pgTable(
  'acme_challenges',
  {
    id: rowId(),
    autoCertificateId: bigint('auto_certificate_id', { mode: 'number' })
      .notNull()
      .references(() => autoCertificates.id, { onDelete: 'cascade' }),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    token: text('token').notNull(),
    keyAuthorization: text('key_authorization').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('acme_challenges_domain_idx').on(t.domainId),
    index('acme_challenges_cert_idx').on(t.autoCertificateId),
  ],
);

/*
 * The data plane as versioned entries (docs/data-plane-deltas.md; modules/snapshots/plane-*.ts).
 * Written by triggers (the dirty marks) and by the entry builder, never by a person: no audit trigger.
 */

/** Sites whose entries may have changed: a set (one row per site), `mark` from dp_mark_seq on every write. */
export const dpDirtySites = pgTable('dp_dirty_sites', {
  siteId: bigint('site_id', { mode: 'number' }).primaryKey(),
  mark: bigint('mark', { mode: 'number' }).notNull(),
});

/**
 * Domains whose entries may have changed while nothing site-level did (domains, their upstreams,
 * access lists and module bindings): the builder rebuilds only these domains' entries and what they
 * use; a statement touching many domains of a site marks the site instead.
 */
export const dpDirtyDomains = pgTable(
  'dp_dirty_domains',
  {
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    domainId: bigint('domain_id', { mode: 'number' }).notNull(),
    mark: bigint('mark', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.domainId] })],
);

/** One row (id 1) while which sites a plane serves may have changed. */
export const dpDirtyMembership = pgTable('dp_dirty_membership', {
  id: smallint('id').primaryKey(),
  mark: bigint('mark', { mode: 'number' }).notNull(),
});

/** Each site's current entries, with their hashes (12 hex digits). */
export const dpEntries = pgTable(
  'dp_entries',
  {
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    hash: text('hash').notNull(),
    value: jsonb('value').notNull(),
    /** A domain entry's domain (the per-domain rebuild finds its old entry by it); null for other kinds. */
    domainId: bigint('domain_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.kind, t.key] }),
    index('dp_entries_kind_key_idx').on(t.kind, t.key),
    index('dp_entries_domain_idx').on(t.domainId),
  ],
);

/** The change log: what each build changed, by sequence (dp_seq); value and hash null: deleted. */
export const dpChanges = pgTable(
  'dp_changes',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    hash: text('hash'),
    value: jsonb('value'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('dp_changes_site_seq_idx').on(t.siteId, t.seq)],
);

/**
 * Per site, the dirty mark its last whole rebuild took (its site-level parts' version): a
 * per-domain rebuild reuses the cache policy, settings and firewall a process read at that version
 * instead of reading them again (plane-entries.ts). No row: never rebuilt whole since this table.
 */
export const dpSiteParts = pgTable('dp_site_parts', {
  siteId: bigint('site_id', { mode: 'number' }).primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * One row (id 1): a version of what the snapshots read of every node (its row's columns they use,
 * its zone, its groups), moved by statement triggers on those tables (drizzle/0052). The builder
 * reads every node again only when it moved, not on every change (snapshot.repository.ts).
 */
export const dpNodesVersion = pgTable('dp_nodes_version', {
  id: smallint('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/** The planes nodes poll: by owner and groups, the sites they serve now. */
export const dpPlanes = pgTable('dp_planes', {
  planeId: bigint('plane_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  planeKey: text('plane_key').notNull().unique(),
  siteIds: bigint('site_ids', { mode: 'number' }).array().notNull(),
  /** The last sequence that changed what the plane serves (its sites' entries, or its site set). */
  changedSeq: bigint('changed_seq', { mode: 'number' }).notNull().default(0),
});

/** Sites that joined (added) or left a plane, in the change log's sequence. */
export const dpPlaneChanges = pgTable(
  'dp_plane_changes',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    planeId: bigint('plane_id', { mode: 'number' }).notNull(),
    siteId: bigint('site_id', { mode: 'number' }).notNull(),
    added: boolean('added').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.planeId, t.seq, t.siteId] })],
);

/** The plane hash answered for a plane at a sequence (a node reporting another at `since` gets a full plane). */
export const dpPlaneVersions = pgTable(
  'dp_plane_versions',
  {
    planeId: bigint('plane_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.planeId, t.seq] })],
);

/** One row (id 1): the last sequence written (head) and the oldest `since` the kept log answers (floor). */
export const dpState = pgTable('dp_state', {
  id: smallint('id').primaryKey(),
  head: bigint('head', { mode: 'number' }).notNull(),
  floor: bigint('floor', { mode: 'number' }).notNull(),
  /** Up to when sites whose end time passed were marked dirty (the builder marks those ending after it). */
  expiryCheckedAt: timestamp('expiry_checked_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Files every control plane of an installation serves alike (the operators' MaxMind databases, log
 * export files), kept in the config store rather than one control plane's DATA_DIR: content
 * addressed by SHA-256, written with their chunks in one transaction (a blob is visible only when
 * complete), read chunk by chunk into each control plane's own disk cache (platform/files/file-blobs.ts).
 */
export const fileBlobs = pgTable(
  'file_blobs',
  {
    sha256: text('sha256').primaryKey(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Chunks in `file_blob_chunks`, numbered 0 to chunks - 1. */
    chunks: integer('chunks').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('file_blobs_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`)],
);

/** A blob's bytes, at most FILE_BLOB_CHUNK_BYTES per row. */
export const fileBlobChunks = pgTable(
  'file_blob_chunks',
  {
    sha256: text('sha256')
      .notNull()
      .references(() => fileBlobs.sha256, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.seq] })],
);

/**
 * What uses a blob: one row per use (`kind` and `ref`: an operator's geo or ASN database by the
 * operator's id, a log export by its id), owned by the account it belongs to. A blob no row names
 * is removed; a blob named by a row cannot be (`restrict`).
 */
export const fileBlobRefs = pgTable(
  'file_blob_refs',
  {
    kind: text('kind').$type<'geo' | 'asn' | 'log-export'>().notNull(),
    ref: text('ref').notNull(),
    ownerId: ownerKey('cascade'),
    sha256: text('sha256')
      .notNull()
      .references(() => fileBlobs.sha256, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.ref] }),
    index('file_blob_refs_sha256_idx').on(t.sha256),
    check('file_blob_refs_kind_check', sql`${t.kind} IN ('geo', 'asn', 'log-export')`),
  ],
);
