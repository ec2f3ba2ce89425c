import { EMPTY_NGINX_TUNING, type NginxTuning, nginxTuningSchema } from '@rampart/contract';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';

/** Where an operator's nginx settings are kept in the settings store. */
export const operatorNginxKey = (operatorId: number) => `nginx.operator.${operatorId}`;

/** A stored document, or the defaults when there is none or it no longer fits the contract. */
export function parseOperatorNginx(document: unknown): NginxTuning {
  const parsed = nginxTuningSchema.safeParse(document);
  return parsed.success ? parsed.data : { ...EMPTY_NGINX_TUNING };
}

/**
 * The operator's nginx settings as the snapshot builder merges them under each zone's (see
 * mergeNginxTuning).
 */
export async function operatorNginxTuning(settings: SettingsRepository, operatorId: number): Promise<NginxTuning> {
  return parseOperatorNginx(await settings.get(operatorNginxKey(operatorId)));
}
