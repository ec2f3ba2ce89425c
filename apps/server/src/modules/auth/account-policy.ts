import { ADDRESS_NOT_ALLOWED, SECOND_FACTOR_REQUIRED } from '@rampart/contract';
import type { AccountRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import { operatorOf } from '../../platform/tenancy/operator.js';
import { hasSecondFactor } from '../../platform/tenancy/second-factor.js';
import {
  type AccountPolicySetting,
  addressAllowed,
  type SystemSettingsService,
} from '../system/system-settings.service.js';

function secondFactorRequired(policy: AccountPolicySetting, account: AccountRow): boolean {
  if (policy.verify === 'off') return false;
  return account.tier === 'client' || policy.verify === 'all';
}

/**
 * The operator's account verify and restrict group CIDRs settings where they take effect: at
 * sign-in and on every signed-in call (docs/decisions.md "System settings: outgoing URL, account
 * verify, restrict group CIDRs"). The address is Fastify's `request.ip`, the one the audit log
 * records: the socket's peer (the control plane trusts no forwarding header).
 */
export class AccountPolicy {
  constructor(private readonly settings: SystemSettingsService) {}

  private refuseAddress(policy: AccountPolicySetting, account: AccountRow, address: string): void {
    // Only the operator's own accounts (client tier); its customers sign in from wherever they are.
    if (account.tier === 'client' && !addressAllowed(policy.cidrs, address)) {
      throw new AppError(101018, { extra: { reason: ADDRESS_NOT_ALLOWED } });
    }
  }

  /** At sign-in, once the password is right: 101018 from an address outside the operator's list. */
  async checkSignIn(account: AccountRow, address: string): Promise<void> {
    this.refuseAddress(await this.settings.policy(operatorOf(account)), account, address);
  }

  /**
   * On a signed-in call: 101018 from an address outside the list, and 101018 `secondFactorRequired`
   * for an account the operator wants a second factor of, unless the call is one of its own
   * account's (`selfCall`: where the second factor is set up). A switched-user session (an operator
   * acting as a customer) is not asked for the customer's second factor.
   */
  async checkCall(account: AccountRow, address: string, selfCall: boolean, switched: boolean): Promise<void> {
    const policy = await this.settings.policy(operatorOf(account));
    this.refuseAddress(policy, account, address);
    if (!selfCall && !switched && secondFactorRequired(policy, account) && !hasSecondFactor(account)) {
      throw new AppError(101018, { extra: { reason: SECOND_FACTOR_REQUIRED } });
    }
  }
}
