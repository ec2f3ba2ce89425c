import { PRIVATE_ORIGINS_DEFAULT, type PrivateOriginsSetting, privateOriginsSettingSchema } from '@rampart/contract';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';

const keyOf = (operatorId: number) => `privateOrigins:${operatorId}`;

/**
 * The operator's choice of origins on loopback and private addresses (routes/private-origins.ts):
 * what the origin checks of saved IP origins follow (`allowsFor`, with the control plane's own
 * RAMPART_ALLOW_PRIVATE_ORIGINS as an override for every operator) and what the plane's meta tells
 * the nodes (`setting`: the choice alone; a node's own variable overrides it there).
 */
export class PrivateOriginsService {
  constructor(
    private readonly settings: Pick<SettingsRepository, 'get' | 'put'>,
    /** The control plane was started with RAMPART_ALLOW_PRIVATE_ORIGINS=1. */
    private readonly allowedByInstallation: boolean,
  ) {}

  async setting(operatorId: number): Promise<PrivateOriginsSetting> {
    const parsed = privateOriginsSettingSchema.safeParse(await this.settings.get(keyOf(operatorId)));
    return parsed.success ? { allowed: parsed.data.allowed } : PRIVATE_ORIGINS_DEFAULT;
  }

  async putSetting(operatorId: number, allowed: boolean): Promise<PrivateOriginsSetting> {
    await this.settings.put(keyOf(operatorId), { allowed });
    return { allowed };
  }

  /** Whether an IP origin on a private address may be saved for the operator's customers. */
  async allowsFor(operatorId: number): Promise<boolean> {
    return this.allowedByInstallation || (await this.setting(operatorId)).allowed;
  }
}
