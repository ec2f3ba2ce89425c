import { createHash } from 'node:crypto';
import {
  ACME_DIRECTORIES,
  type AcmeSetting,
  type AcmeSettingIn,
  acmeSettingSchema,
  type EabSetting,
  type EabSettingIn,
} from '@rampart/contract';
import * as acme from 'acme-client';
import { z } from 'zod';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { OutgoingGuard } from '../../platform/http/outgoing.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { guardedAcmeClient } from './acme-guard.js';

export type EabName = 'zeroSSL' | 'googleTrust';
const acmeKey = (operatorId: number) => `acme:${operatorId}`;
const eabKey = (name: EabName, operatorId: number) => `${name}:${operatorId}`;
/** One ACME account per operator and directory: its key sealed, its URL once registered. */
const accountKey = (operatorId: number, directoryUrl: string) =>
  `acmeAccount:${operatorId}:${createHash('sha256').update(directoryUrl).digest('hex').slice(0, 16)}`;

const DEFAULT_SETTING: AcmeSetting = { ca: 'letsEncrypt', directoryUrl: '', caBundle: '', email: '' };
const eabStored = z.object({ kid: z.string(), sealedHmacKey: z.string() });
const accountStored = z.object({ sealedKey: z.string(), url: z.string() });

/** How long the client waits between polls of an order or challenge (ms); tests shorten it. */
export interface AcmePolling {
  readonly backoffMin: number;
  readonly backoffMax: number;
  readonly backoffAttempts: number;
}
export const DEFAULT_POLLING: AcmePolling = { backoffMin: 2000, backoffMax: 30_000, backoffAttempts: 10 };

/** An ACME client for the operator's CA, with its account (registered on first use). */
export interface OperatorAcme {
  readonly client: acme.Client;
  readonly directoryUrl: string;
}

/**
 * The operator's ACME CA (contract: auto-certificates.ts) and EAB credentials, in the settings
 * table; HMAC keys and account keys sealed with the installation's SecretBox.
 */
export class AcmeSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly transactions: Transactions,
    private readonly outgoing: OutgoingGuard,
    private readonly polling: AcmePolling = DEFAULT_POLLING,
  ) {}

  async get(operatorId: number): Promise<AcmeSetting> {
    const parsed = acmeSettingSchema.safeParse(await this.settings.get(acmeKey(operatorId)));
    return parsed.success ? parsed.data : { ...DEFAULT_SETTING };
  }

  /** 101003 `targetNotAllowed` on `directoryUrl` when it is, or resolves to, an address every request would refuse. */
  async save(operatorId: number, input: AcmeSettingIn): Promise<AcmeSetting> {
    if (input.ca === 'custom' && input.directoryUrl !== undefined) {
      if (!(await this.outgoing.targets.savable(new URL(input.directoryUrl).hostname)))
        throw invalidFields([{ field: 'directoryUrl', key: 'targetNotAllowed' }]);
    }
    const setting: AcmeSetting =
      input.ca === 'custom'
        ? { ca: 'custom', directoryUrl: input.directoryUrl ?? '', caBundle: input.caBundle, email: input.email }
        : { ca: input.ca, directoryUrl: '', caBundle: '', email: input.email };
    await this.settings.put(acmeKey(operatorId), setting);
    return setting;
  }

  private async eabStored(name: EabName, operatorId: number) {
    const parsed = eabStored.safeParse(await this.settings.get(eabKey(name, operatorId)));
    return parsed.success ? parsed.data : null;
  }

  async getEab(name: EabName, operatorId: number): Promise<EabSetting | null> {
    const stored = await this.eabStored(name, operatorId);
    return stored ? { kid: stored.kid, hasHmacKey: stored.sealedHmacKey !== '' } : null;
  }

  /** A key left out keeps the stored one; 101003 `required` on `hmacKey` when there is none. */
  async saveEab(name: EabName, operatorId: number, input: EabSettingIn): Promise<EabSetting> {
    return this.transactions.run(async () => {
      await this.settings.lock(eabKey(name, operatorId));
      const stored = await this.eabStored(name, operatorId);
      const sealedHmacKey = input.hmacKey !== undefined ? this.box.seal(input.hmacKey) : stored?.sealedHmacKey;
      if (!sealedHmacKey) throw invalidFields([{ field: 'hmacKey', key: 'required' }]);
      await this.settings.put(eabKey(name, operatorId), { kid: input.kid, sealedHmacKey });
      return { kid: input.kid, hasHmacKey: true };
    });
  }

  /**
   * A client of the operator's CA with its account: the key is made and sealed on first use, the
   * account registered (with EAB for ZeroSSL and Google Trust) and its URL kept. Throws an Error
   * whose message says what is missing or what the CA answered (recorded as the attempt's error).
   */
  async clientFor(operatorId: number): Promise<OperatorAcme> {
    const setting = await this.get(operatorId);
    const directoryUrl = setting.ca === 'custom' ? setting.directoryUrl : ACME_DIRECTORIES[setting.ca];
    // The CA's directory must be on the operator's outgoing URL list (the refusal is the attempt's error).
    await this.outgoing.check(operatorId, directoryUrl);
    let eab: { kid: string; hmacKey: string } | undefined;
    if (setting.ca === 'zeroSSL' || setting.ca === 'googleTrust') {
      const stored = await this.eabStored(setting.ca, operatorId);
      if (!stored) throw new Error(`the ${setting.ca} setting (EAB credentials) is not set`);
      eab = { kid: stored.kid, hmacKey: this.box.open(stored.sealedHmacKey) };
    }
    const key = accountKey(operatorId, directoryUrl);
    let account = accountStored.safeParse(await this.settings.get(key)).data;
    if (!account) {
      const made = { sealedKey: this.box.seal((await acme.crypto.createPrivateEcdsaKey()).toString()), url: '' };
      account = accountStored.parse(await this.settings.putIfAbsent(key, made));
    }
    const options = {
      directoryUrl,
      accountKey: this.box.open(account.sealedKey),
      ...(account.url ? { accountUrl: account.url } : {}),
      ...(eab ? { externalAccountBinding: eab } : {}),
      ...this.polling,
    };
    const client = guardedAcmeClient(options, this.outgoing.targets, setting.ca === 'custom' ? setting.caBundle : '');
    if (!account.url) {
      await client.createAccount({
        termsOfServiceAgreed: true,
        ...(setting.email ? { contact: [`mailto:${setting.email}`] } : {}),
      });
      await this.settings.put(key, { ...account, url: client.getAccountUrl() });
    }
    return { client, directoryUrl };
  }
}
