import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { AlertsService } from '../modules/alerts/alerts.service.js';
import type { LicenseLimits } from '../modules/licenses/license-limits.js';
import type { LicenseKeys } from '../modules/licenses/licenses.service.js';
import type { NodeCapacity } from '../modules/snapshots/node-capacity.js';
import type { SystemService } from '../modules/system/system.service.js';
import type { SystemSettingsService } from '../modules/system/system-settings.service.js';
import type { ConfigChanges } from '../platform/changes.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto/secret-box.js';
import type { Db } from '../platform/db/database.js';
import type { Transactions } from '../platform/db/request-transaction.js';
import type { FileBlobStore } from '../platform/files/file-blobs.js';
import type { OutgoingGuard } from '../platform/http/outgoing.js';
import type { Mailer } from '../platform/mail/mailer.js';
import type { ControlPlaneMetrics } from '../platform/metrics/control-plane-metrics.js';
import type { Repositories } from './repositories.js';

/** The settings the control plane's HTTP application reads (main.ts passes the whole `Config`). */
export type AppConfig = Pick<
  Config,
  | 'version'
  | 'agentReleaseDir'
  | 'consoleDir'
  | 'logLevel'
  | 'secret'
  | 'initPassword'
  | 'publicUrl'
  | 'smtpUrl'
  | 'accessTokenTtlSeconds'
  | 'allowPrivateOrigins'
  | 'allowPrivateTargets'
  | 'dnsServers'
  | 'dnsTimeoutMs'
  | 'domainProof'
  | 'domainProofIntervalSeconds'
  | 'tokenSecrets'
  | 'nodeDomainLimit'
  | 'licenseSigningKey'
  | 'logExportRetentionDays'
  | 'logExportMaxBytes'
  | 'logExportTickMs'
  | 'logPushDeadAfterSeconds'
  | 'logPushSettleMs'
  | 'logCapacity'
  | 'aggregateBodyMs'
  | 'logPushTickMs'
  | 'logPushBackoffMs'
  | 'telegramApiUrl'
  | 'alertsTickMs'
  | 'dbBackupTickMs'
  | 'trafficCheckTickMs'
  | 'licenceExpiryTickMs'
  | 'embeddedVacuumTickMs'
  | 'dnsPublish'
  | 'autoCert'
  | 'metricsToken'
> &
  // Where files such as the operators' geo databases live; absent (tests): a temporary directory.
  Partial<Pick<Config, 'dataDir'>>;

/**
 * What every area's composition (accounts.ts, edge.ts, operator.ts, sites.ts) builds its services
 * from: built once in `buildApp`, shared, never rebuilt per area.
 */
export interface AppContext {
  readonly app: FastifyInstance;
  readonly config: AppConfig;
  readonly clock: Clock;
  /** The control plane's Prometheus metrics (platform/metrics). */
  readonly metrics: ControlPlaneMetrics;
  /** Runs a block all or none inside the call's transaction (a savepoint). */
  readonly transactions: Transactions;
  /** The request-scoped database (the one the repositories hold), for the data plane's log (modules/snapshots/plane-*.ts). */
  readonly db: Db;
  readonly repos: Repositories;
  readonly box: SecretBox;
  /** Files every control plane serves alike (geo databases, log export files), in the config store. */
  readonly blobs: FileBlobStore;
  readonly mailer: Mailer;
  readonly system: SystemService;
  /** The operator's outgoing URL list, second-factor requirement and CIDR list. */
  readonly systemSettings: SystemSettingsService;
  /** The operator's outgoing URL list where calls go out (platform/http/outgoing.ts). */
  readonly outgoing: OutgoingGuard;
  /** Wakes the nodes' snapshot polls after a change to what they serve (in every control-plane process). */
  readonly changes: ConfigChanges;
  /** Wakes the nodes' command polls after commands were queued (in every control-plane process). */
  readonly queuedCommands: ConfigChanges;
  /** Bumped when the monitors move a node up or down (the DNS publication follows). */
  readonly monitorTransitions: ConfigChanges;
  readonly capacity: NodeCapacity;
  /** The operator's licence where objects are made (modules/licenses/license-limits.ts). */
  readonly licenseLimits: LicenseLimits;
  /** The keys offline licences are checked against and signed with. */
  readonly licenseKeys: LicenseKeys;
  /** The branding title mails are signed with. */
  readonly productName: () => Promise<string>;
  /**
   * Raises alerts (modules/alerts/alerts.service.ts: the kinds and their params): node down and up,
   * attack spikes, and certificate renewal, licence expiry and traffic over a plan from their areas.
   */
  readonly alerts: AlertsService;
  /** The address e-mailed links and node install commands point at, from the request's origin. */
  readonly publicUrl: (origin: string) => string;
}
