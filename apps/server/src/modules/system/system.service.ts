import { randomUUID } from 'node:crypto';
import { FRONTEND_VERSION, type LogoInfo, logoInfoSchema } from '@rampart/contract';
import { z } from 'zod';
import type { Database } from '../../platform/db/database.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';

const instanceSchema = z.object({ id: z.string(), createdAt: z.string() });
export type Instance = z.infer<typeof instanceSchema>;

/** Branding when the operator has set none (spec part 1 §1: default title and copyright, empty images). */
export const DEFAULT_BRANDING: LogoInfo = {
  backgroundImage: '',
  copyright: `© ${new Date().getUTCFullYear()} Rampart`,
  favicon: '',
  logo: '',
  title: 'Rampart',
  sidebarLogo: '',
  sidebarSimpleLogo: '',
  version: FRONTEND_VERSION,
  subTitle: '',
  description: '',
};

export class SystemService {
  private instance: Instance | null = null;
  private readonly startedAt = Date.now();

  constructor(
    private readonly database: Database,
    private readonly settings: SettingsRepository,
    private readonly version: string,
  ) {}

  /** Makes this installation's identity on first start; later starts read it back. */
  async ensureInstance(): Promise<Instance> {
    const stored = await this.settings.putIfAbsent('instance', {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
    });
    this.instance = instanceSchema.parse(stored);
    return this.instance;
  }

  /** This installation's id (made by `ensureInstance` at start-up): what an offline licence is bound to. */
  instanceId(): string {
    if (!this.instance) throw new Error('ensureInstance has not run');
    return this.instance.id;
  }

  async health() {
    const databaseOk = await this.database.ping();
    return {
      status: databaseOk ? ('ok' as const) : ('degraded' as const),
      version: this.version,
      database: this.database.driver,
      databaseOk,
      instanceId: this.instance?.id ?? '',
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }

  /**
   * Branding for the login pages. Stored per installation under `branding`; fields the operator
   * has not set keep their defaults, and a malformed stored value falls back to the defaults.
   */
  async branding(): Promise<LogoInfo> {
    const stored = logoInfoSchema.partial().safeParse(await this.settings.get('branding'));
    return { ...DEFAULT_BRANDING, ...(stored.success ? stored.data : {}) };
  }
}
