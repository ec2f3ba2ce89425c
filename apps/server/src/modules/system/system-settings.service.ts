import {
  ACCOUNT_VERIFY_MODES,
  type AccountVerifySetting,
  addressInEntry,
  type OperatorErrorPages,
  type OperatorErrorPagesIn,
  type OutgoingUrlSetting,
  type OutgoingUrlSettingIn,
  PERDEFINED_SETTING_DEFAULT,
  type PerdefinedSetting,
  perdefinedSettingSchema,
  type RestrictCidrsSetting,
  type RestrictCidrsSettingIn,
} from '@rampart/contract';
import { z } from 'zod';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { AccountRow } from '../../platform/db/schema.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { hasSecondFactor } from '../../platform/tenancy/second-factor.js';

const outgoingKey = (operatorId: number) => `outgoingURL:${operatorId}`;
const errorPagesKey = (operatorId: number) => `errorPages:${operatorId}`;
const policyKey = (operatorId: number) => `accountPolicy:${operatorId}`;
const perdefinedKey = (operatorId: number) => `perdefined:${operatorId}`;

/**
 * The operator's predefined settings of new sites as it saved them; null until it does (a new site
 * then gets no settings row, as before the setting existed).
 */
export async function savedPerdefinedSetting(
  settings: SettingsRepository,
  operatorId: number,
): Promise<PerdefinedSetting | null> {
  const parsed = perdefinedSettingSchema.safeParse(await settings.get(perdefinedKey(operatorId)));
  return parsed.success ? parsed.data : null;
}

const outgoingStored = z.object({ urls: z.array(z.string()) });
const errorPagesStored = z.object({ pages: z.array(z.object({ status: z.number().int(), body: z.string() })) });
const policyStored = z.object({ verify: z.enum(ACCOUNT_VERIFY_MODES), cidrs: z.array(z.string()) });

/** What the operator asks of its accounts: the second factor and where its own accounts may call from. */
export type AccountPolicySetting = z.infer<typeof policyStored>;
const NO_POLICY: AccountPolicySetting = { verify: 'off', cidrs: [] };

/** Whether `address` is one the list allows (an empty list allows every address). */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  return cidrs.length === 0 || cidrs.some((entry) => addressInEntry(address, entry));
}

/**
 * The operator's outgoing URL list, second-factor requirement, CIDR list and default error pages (contract
 * system-settings.ts), one document each in the settings table under the operator's id.
 */
export class SystemSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly transactions: Transactions,
  ) {}

  async perdefined(operatorId: number): Promise<PerdefinedSetting> {
    return (await savedPerdefinedSetting(this.settings, operatorId)) ?? PERDEFINED_SETTING_DEFAULT;
  }

  async savePerdefined(operatorId: number, input: PerdefinedSetting): Promise<PerdefinedSetting> {
    const value = { ...input, gzip: { ...input.gzip, types: [...new Set(input.gzip.types)] } };
    await this.settings.put(perdefinedKey(operatorId), value);
    return value;
  }

  async outgoingUrls(operatorId: number): Promise<OutgoingUrlSetting> {
    const parsed = outgoingStored.safeParse(await this.settings.get(outgoingKey(operatorId)));
    return { urls: parsed.success ? parsed.data.urls : [] };
  }

  async saveOutgoingUrls(operatorId: number, input: OutgoingUrlSettingIn): Promise<OutgoingUrlSetting> {
    await this.settings.put(outgoingKey(operatorId), { urls: input.urls });
    return { urls: input.urls };
  }

  /** The operator's default error pages (none until set), by status. */
  async errorPages(operatorId: number): Promise<OperatorErrorPages> {
    const parsed = errorPagesStored.safeParse(await this.settings.get(errorPagesKey(operatorId)));
    return { pages: parsed.success ? parsed.data.pages : [] };
  }

  async saveErrorPages(operatorId: number, input: OperatorErrorPagesIn): Promise<OperatorErrorPages> {
    const value = { pages: input.pages.map((p) => ({ status: p.status, body: p.body })) };
    await this.settings.put(errorPagesKey(operatorId), value);
    return value;
  }

  /** The operator's account policy (off and anywhere until set); null operator: none. */
  async policy(operatorId: number | null): Promise<AccountPolicySetting> {
    if (operatorId === null) return NO_POLICY;
    const parsed = policyStored.safeParse(await this.settings.get(policyKey(operatorId)));
    return parsed.success ? parsed.data : NO_POLICY;
  }

  private async changePolicy(operatorId: number, change: Partial<AccountPolicySetting>): Promise<AccountPolicySetting> {
    return this.transactions.run(async () => {
      await this.settings.lock(policyKey(operatorId));
      const next = { ...(await this.policy(operatorId)), ...change };
      await this.settings.put(policyKey(operatorId), next);
      return next;
    });
  }

  async accountVerify(operatorId: number): Promise<AccountVerifySetting> {
    return { mode: (await this.policy(operatorId)).verify };
  }

  /**
   * Refuses (101003 on `mode`) to require a second factor of the operator's accounts while the
   * caller (one of them) has none: it could then do nothing but set one up.
   */
  async saveAccountVerify(
    caller: Pick<ClientCaller, 'operatorId'> & { account: Pick<AccountRow, 'login2FAType' | 'totpSecret'> },
    input: AccountVerifySetting,
  ): Promise<AccountVerifySetting> {
    if (input.mode !== 'off' && !hasSecondFactor(caller.account)) {
      throw invalidFields([{ field: 'mode', key: 'invalidValue' }]);
    }
    return { mode: (await this.changePolicy(caller.operatorId, { verify: input.mode })).verify };
  }

  async restrictCidrs(operatorId: number): Promise<RestrictCidrsSetting> {
    return { cidrs: (await this.policy(operatorId)).cidrs };
  }

  /** Refuses (101003 on `cidrs`) a list the caller's own address is outside: it would lock the caller out. */
  async saveRestrictCidrs(
    operatorId: number,
    input: RestrictCidrsSettingIn,
    callerAddress: string,
  ): Promise<RestrictCidrsSetting> {
    if (!addressAllowed(input.cidrs, callerAddress)) {
      throw invalidFields([{ field: 'cidrs', key: 'invalidValue' }]);
    }
    return { cidrs: (await this.changePolicy(operatorId, { cidrs: input.cidrs })).cidrs };
  }
}
