import type { L4AttackPageSetting } from '@rampart/contract';
import { z } from 'zod';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';

const storedSchema = z.object({ enabled: z.boolean() });
const keyOf = (operatorId: number) => `l4AttackPage:${operatorId}`;

/**
 * The operator's switch that lists the layer-4 attack page in its customers' menu
 * (contract: network-statistics.ts `l4AttackPageSettingRoutes`), one record per operator in the
 * system settings; off until the operator turns it on.
 */
export class L4AttackPageSettings {
  constructor(private readonly settings: SettingsRepository) {}

  async setting(operatorId: number): Promise<L4AttackPageSetting> {
    const parsed = storedSchema.safeParse(await this.settings.get(keyOf(operatorId)));
    return { enabled: parsed.success && parsed.data.enabled };
  }

  async putSetting(operatorId: number, enabled: boolean): Promise<L4AttackPageSetting> {
    await this.settings.put(keyOf(operatorId), { enabled });
    return { enabled };
  }
}
