import {
  DOMAIN_PROOF_STATUS,
  type DomainProofCheck,
  type DomainProofSetting,
  type DomainProofStatus,
  proofIsLive,
  proofRecordName,
} from '@rampart/contract';
import { z } from 'zod';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { type CnameResolver, DnsLookupError } from '../../platform/dns/cname-resolver.js';
import type { TxtResolver } from '../../platform/dns/txt-resolver.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { CnameSettingsService } from './cname-settings.service.js';
import { cnameQueryName, cnameTarget } from './domain-names.js';
import type { Claim, DomainProofRepository } from './domain-proof.repository.js';

const { pending, proved, waived, lost } = DOMAIN_PROOF_STATUS;
const storedSchema = z.object({ required: z.boolean() });
const keyOf = (operatorId: number) => `domainProof:${operatorId}`;

/**
 * Proof of control of domain names (contract: domain-proof.ts): the state a new claim starts in,
 * the check of a claim's TXT record or CNAME, the settling of a name between customers (the first
 * to prove wins, the others lose), and the operator's setting that waives proof for its customers.
 * Every change of a name's claims runs under that name's lock.
 */
export class DomainProofService {
  constructor(
    private readonly repo: DomainProofRepository,
    private readonly settings: SettingsRepository,
    private readonly transactions: Transactions,
    private readonly access: SiteAccess,
    private readonly cnames: CnameSettingsService,
    private readonly txt: TxtResolver,
    private readonly cname: CnameResolver,
    /** The installation's default for operators that have not chosen (RAMPART_DOMAIN_PROOF). */
    private readonly requiredByDefault: boolean,
  ) {}

  async setting(operatorId: number): Promise<DomainProofSetting> {
    return { required: (await this.choice(operatorId)).required };
  }

  /** The setting and whether the operator chose it (false while the installation's default holds). */
  async choice(operatorId: number): Promise<DomainProofSetting & { chosen: boolean }> {
    const parsed = storedSchema.safeParse(await this.settings.get(keyOf(operatorId)));
    return parsed.success
      ? { required: parsed.data.required, chosen: true }
      : { required: this.requiredByDefault, chosen: false };
  }

  /** Stores the operator's choice; waiving proof lets its pending claims go live where nobody else's is. */
  async putSetting(operatorId: number, required: boolean): Promise<DomainProofSetting> {
    return this.transactions.run(async () => {
      await this.settings.lock(keyOf(operatorId));
      await this.settings.put(keyOf(operatorId), { required });
      if (!required) {
        const waiting = await this.repo.pendingOfOperator(operatorId);
        await this.repo.lockNames(waiting.map((c) => c.name));
        for (const claim of waiting) {
          if (canWaive(claim, await this.repo.claimsOf([claim.name]))) await this.repo.setStatus([claim.id], waived);
        }
      }
      return { required };
    });
  }

  /**
   * The state each new claim of the customer of `site` starts in, by name, inside the creating
   * transaction (which then holds the names' locks). Names another customer has proved are
   * `refused` (401001), and so are names another customer of the same operator holds live where that
   * operator waives proof. A name the customer itself proved, or holds waived, starts the same; a name
   * of an operator that waives proof starts waived when no other customer's claim of it is live.
   */
  async initialStates(
    site: { ownerId: number; userId: number },
    items: { name: string; status: 0 | 1 }[],
  ): Promise<{ states: Map<string, DomainProofStatus>; refused: string[] }> {
    const names = [...new Set(items.map((i) => i.name))];
    const enabled = new Set(items.filter((i) => i.status === 1).map((i) => i.name));
    await this.repo.lockNames(names);
    const claims = await this.repo.claimsOf(names);
    const required = (await this.setting(site.ownerId)).required;
    const states = new Map<string, DomainProofStatus>();
    const refused: string[] = [];
    for (const name of names) {
      const ofName = claims.filter((c) => c.name === name);
      const mine = ofName.filter((c) => c.userId === site.userId);
      const others = ofName.filter((c) => c.userId !== site.userId);
      // Where the operator waives proof it vouches for its customers' claims: among them the first
      // live claim keeps the name, as before proof existed.
      const vouchedByOperator =
        enabled.has(name) && !required && others.some((c) => c.ownerId === site.ownerId && isLiveClaim(c));
      if (others.some((c) => c.proofStatus === proved) || vouchedByOperator) refused.push(name);
      else if (mine.some((c) => c.proofStatus === proved)) states.set(name, proved);
      else if (mine.some((c) => c.proofStatus === waived)) states.set(name, waived);
      else if (!required && !others.some(isLiveClaim)) states.set(name, waived);
      else states.set(name, pending);
    }
    return { states, refused };
  }

  /**
   * Names among `names` (claims of the customer of `site` not live yet) that may not be enabled:
   * where the operator waives proof, another of its customers holds the name live (401001).
   */
  async refusedToEnable(site: { ownerId: number; userId: number }, names: string[]): Promise<string[]> {
    if (names.length === 0 || (await this.setting(site.ownerId)).required) return [];
    const claims = await this.repo.claimsOf(names);
    return names.filter((name) =>
      claims.some((c) => c.name === name && c.userId !== site.userId && c.ownerId === site.ownerId && isLiveClaim(c)),
    );
  }

  /** `PUT user/site/{siteId}/domains/verify`: looks for proof of the site's domains and settles them. */
  async verify(userId: number, siteId: number, ids: number[]): Promise<DomainProofCheck[]> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    const claims = await this.repo.siteClaims(siteId, unique);
    requireEvery(claims, unique);
    claims.sort((a, b) => unique.indexOf(a.id) - unique.indexOf(b.id));
    let found: Map<number, boolean>;
    try {
      found = await this.lookForProof(claims);
    } catch (err) {
      if (err instanceof DnsLookupError) {
        throw new AppError(101010, { extra: { name: err.hostname, reason: err.reason }, cause: err });
      }
      throw err;
    }
    const at = new Date();
    const states = await this.settle(claims, found, at);
    return claims.map((c) => ({
      id: c.id,
      name: c.name,
      proofStatus: states.get(c.id) ?? c.proofStatus,
      proofCheckedAt: at.toISOString(),
    }));
  }

  /**
   * Settles claims whose CNAME was just seen pointing at their target (checkCNAME): that is proof
   * of control too, since the target's label is the claim's own random one.
   */
  async cnameVerified(siteId: number, ids: number[], at: Date): Promise<void> {
    const claims = await this.repo.siteClaims(siteId, ids);
    await this.settle(
      claims.filter((c) => c.proofStatus !== proved),
      new Map(claims.map((c) => [c.id, true])),
      at,
    );
  }

  /** The background job's round: up to `limit` waiting claims, longest unchecked first. Answers how many it looked at. */
  async checkWaiting(limit: number): Promise<number> {
    const claims = await this.repo.waiting(limit);
    const found = new Map<number, boolean>();
    for (const claim of claims) {
      try {
        const one = await this.lookForProof([claim]);
        found.set(claim.id, one.get(claim.id) ?? false);
      } catch (err) {
        // One name's resolver failure says nothing about it; the others are still looked at.
        if (!(err instanceof DnsLookupError)) throw err;
      }
    }
    await this.settle(
      claims.filter((c) => found.has(c.id)),
      found,
      new Date(),
    );
    return claims.length;
  }

  /** Whether each claim's TXT record holds its token or its name CNAMEs to its target. */
  private async lookForProof(claims: Claim[]): Promise<Map<number, boolean>> {
    const found = new Map<number, boolean>();
    const domainOf = new Map<number, string>();
    for (const claim of claims) {
      if (claim.proofStatus === proved) {
        found.set(claim.id, true);
        continue;
      }
      const texts = await this.txt.texts(proofRecordName(claim.name));
      if (texts.some((t) => t.trim() === claim.proofToken)) {
        found.set(claim.id, true);
        continue;
      }
      let cnameDomain = domainOf.get(claim.ownerId);
      if (cnameDomain === undefined) {
        cnameDomain = await this.cnames.domainOf(claim.ownerId);
        domainOf.set(claim.ownerId, cnameDomain);
      }
      found.set(claim.id, await this.cname.pointsAt(cnameQueryName(claim), cnameTarget(claim, cnameDomain)));
    }
    return found;
  }

  /**
   * Records what was found, name by name under the name's lock: a claim with proof wins the name
   * unless another customer proved it first (then it is lost); the other customers' claims of a
   * name someone proved are lost. A claim without proof is waived when its operator waives proof
   * and nobody else's claim is live, and a lost claim whose winner is gone is pending again.
   */
  private async settle(
    claims: Claim[],
    found: Map<number, boolean>,
    at: Date,
  ): Promise<Map<number, DomainProofStatus>> {
    const result = new Map<number, DomainProofStatus>();
    if (claims.length === 0) return result;
    await this.transactions.run(async () => {
      await this.repo.lockNames(claims.map((c) => c.name));
      const requiredOf = new Map<number, boolean>();
      for (const stale of claims) {
        const ofName = await this.repo.claimsOf([stale.name]);
        const claim = ofName.find((c) => c.id === stale.id);
        if (!claim) continue;
        const others = ofName.filter((c) => c.userId !== claim.userId);
        const mine = ofName.filter((c) => c.userId === claim.userId && c.id !== claim.id);
        let next: DomainProofStatus = claim.proofStatus;
        if (others.some((c) => c.proofStatus === proved)) {
          next = lost;
        } else if (found.get(claim.id) || mine.some((c) => c.proofStatus === proved)) {
          // A second enabled live claim of the customer's own would break the name's uniqueness:
          // that one waits until the customer disables the other.
          const clash = claim.enabled && mine.some((c) => c.enabled && proofIsLive(c.proofStatus));
          if (!clash) {
            await this.repo.setStatus(
              others.filter((c) => c.proofStatus !== lost).map((c) => c.id),
              lost,
            );
            next = proved;
          }
        } else if (claim.proofStatus === lost) {
          next = pending;
        }
        if (next === pending) {
          let required = requiredOf.get(claim.ownerId);
          if (required === undefined) {
            required = (await this.setting(claim.ownerId)).required;
            requiredOf.set(claim.ownerId, required);
          }
          if (!required && canWaive(claim, ofName)) next = waived;
        }
        if (next !== claim.proofStatus) await this.repo.setStatus([claim.id], next);
        result.set(claim.id, next);
      }
      await this.repo.setChecked(
        claims.map((c) => c.id),
        at,
      );
    });
    return result;
  }
}

function isLiveClaim(c: Claim): boolean {
  return c.enabled && proofIsLive(c.proofStatus);
}

/** A claim may go live without proof when no other claim of its name is live or proved. */
function canWaive(claim: Claim, ofName: Claim[]): boolean {
  return !ofName.some(
    (c) =>
      c.id !== claim.id &&
      (c.proofStatus === DOMAIN_PROOF_STATUS.proved ||
        (c.enabled && proofIsLive(c.proofStatus) && (claim.enabled || c.userId !== claim.userId))),
  );
}
