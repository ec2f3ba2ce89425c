import type { SelfInfo, Tier } from '@rampart/contract';
import { CLIENT_PATHS, consolePath } from './console-paths';

/** A page as the landing rule reads it: its name and its path under its console. */
interface NamedPage {
  readonly name: string;
  readonly path: string;
}

/** The client console's DNS setting page (pages/client/client.routes.tsx declares it by the same path). */
const CLIENT_DNS_SETTING: readonly NamedPage[] = [{ name: 'dnsSetting', path: CLIENT_PATHS.dnsSetting }];

/**
 * Where a visitor goes after login (spec part 1 §2): a root client account with no DNS type
 * configured goes to the DNS setting page (the client page named `dnsSetting`), everyone else to
 * the dashboard.
 */
export function landingPath(
  tier: Tier,
  self: SelfInfo,
  clientPages: readonly NamedPage[] = CLIENT_DNS_SETTING,
): string {
  if (tier === 'client' && self.isRoot && self.dnsType === '') {
    const dnsSetting = clientPages.find((page) => page.name === 'dnsSetting');
    if (dnsSetting) return `/client/${dnsSetting.path}`;
  }
  return consolePath(tier, 'dashboard');
}
