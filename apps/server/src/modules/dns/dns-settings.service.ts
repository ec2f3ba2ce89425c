import { type DnsSetting, type DnsSettingIn, type DnsTestResult, dnsSettingSchema } from '@rampart/contract';
import { z } from 'zod';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { OutgoingGuard } from '../../platform/http/outgoing.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import { type DnsProvider, DnsProviderError } from './dns-provider.js';
import { splitServer } from './dns-tcp.js';
import {
  type DnsSettingFields,
  destinationOf,
  guardedProvider,
  type ProviderEndpoints,
  providerFor,
  SECRET_FIELD,
  secretOf,
  visibleOf,
} from './providers.js';

const keyOf = (operatorId: number) => `dnsProvider:${operatorId}`;

/** What the settings table holds: the visible fields (as answers show them) and the sealed secret. */
const storedSchema = z.object({ setting: z.record(z.string(), z.unknown()), sealedSecret: z.string() });

interface StoredDnsSetting {
  readonly setting: DnsSettingFields;
  readonly sealedSecret: string;
}

/**
 * The operator's DNS provider (contract: dns-settings.ts), one per operator in the settings table,
 * its secret sealed with the installation's SecretBox like every stored secret. Saving sets the
 * operator's `dnsType` (the console's landing rule reads it), deleting clears it.
 */
export class DnsSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly accounts: AccountsRepository,
    private readonly box: SecretBox,
    private readonly transactions: Transactions,
    private readonly outgoing: OutgoingGuard,
    private readonly endpoints: ProviderEndpoints = {},
  ) {}

  private async stored(operatorId: number): Promise<StoredDnsSetting | null> {
    const parsed = storedSchema.safeParse(await this.settings.get(keyOf(operatorId)));
    if (!parsed.success) return null;
    const setting = dnsSettingSchema.safeParse({ ...parsed.data.setting, hasSecret: true });
    if (!setting.success) return null;
    const { hasSecret: _, ...fields } = setting.data;
    return { setting: fields, sealedSecret: parsed.data.sealedSecret };
  }

  private view(stored: StoredDnsSetting): DnsSetting {
    return { ...stored.setting, hasSecret: stored.sealedSecret !== '' };
  }

  async get(operatorId: number): Promise<DnsSetting | null> {
    const stored = await this.stored(operatorId);
    return stored ? this.view(stored) : null;
  }

  /** The submitted secret, else the stored one of the same type; 101003 `required` on its field if neither. */
  private async secretFor(operatorId: number, input: DnsSettingIn): Promise<string> {
    const given = secretOf(input);
    if (given !== undefined) return given;
    const stored = await this.stored(operatorId);
    if (stored && stored.setting.type === input.type && stored.sealedSecret !== '')
      return this.box.open(stored.sealedSecret);
    throw invalidFields([{ field: SECRET_FIELD[input.type], key: 'required' }]);
  }

  /**
   * The address rule of every call (platform/http/target-guard.ts) run on the submitted server:
   * 101003 `targetNotAllowed` on `apiUrl` / `server` when it is, or resolves to, a refused address.
   */
  private async checkTarget(input: DnsSettingIn): Promise<void> {
    const target =
      input.type === 'powerdns'
        ? { field: 'apiUrl', host: new URL(input.apiUrl).hostname }
        : input.type === 'rfc2136'
          ? { field: 'server', host: splitServer(input.server).host }
          : null;
    if (target && !(await this.outgoing.targets.savable(target.host)))
      throw invalidFields([{ field: target.field, key: 'targetNotAllowed' }]);
  }

  async save(operatorId: number, input: DnsSettingIn): Promise<DnsSetting> {
    await this.checkTarget(input);
    return this.transactions.run(async () => {
      await this.settings.lock(keyOf(operatorId));
      const secret = await this.secretFor(operatorId, input);
      const stored: StoredDnsSetting = { setting: visibleOf(input), sealedSecret: this.box.seal(secret) };
      await this.settings.put(keyOf(operatorId), stored);
      await this.accounts.update(operatorId, { dnsType: input.type });
      return this.view(stored);
    });
  }

  async delete(operatorId: number): Promise<void> {
    await this.transactions.run(async () => {
      await this.settings.lock(keyOf(operatorId));
      await this.settings.delete(keyOf(operatorId));
      await this.accounts.update(operatorId, { dnsType: '' });
    });
  }

  /** Runs the provider's check on the submitted setting; 101010 with the provider's message when it fails. */
  async test(operatorId: number, input: DnsSettingIn): Promise<DnsTestResult> {
    await this.checkTarget(input);
    const provider = this.build(operatorId, visibleOf(input), await this.secretFor(operatorId, input));
    return { detail: await this.run(provider.zone, () => provider.test()) };
  }

  /** The operator's provider, for the publishing of later work; 101006 when none is set. */
  async providerOf(operatorId: number): Promise<DnsProvider> {
    const stored = await this.stored(operatorId);
    if (!stored) throw new AppError(101006);
    return this.build(operatorId, stored.setting, this.box.open(stored.sealedSecret));
  }

  /** The adapter, behind the operator's outgoing URL list. */
  private build(operatorId: number, setting: DnsSettingFields, secret: string): DnsProvider {
    const provider = providerFor(setting, secret, this.outgoing.targets, this.endpoints);
    return guardedProvider(provider, destinationOf(setting, this.endpoints), this.outgoing.of(operatorId));
  }

  /** Runs a provider call for `zone`, its refusal becoming 101010 naming the zone, the provider's message its reason. */
  async run<T>(zone: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DnsProviderError) {
        throw new AppError(101010, { extra: { name: zone, reason: error.message }, cause: error });
      }
      throw error;
    }
  }
}
