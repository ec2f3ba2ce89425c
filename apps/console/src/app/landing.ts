import type { SelfInfo, Tier } from '@rampart/contract';
import { CLIENT_PAGES } from '../pages/client/client.routes';
import { consolePath } from './console-paths';

/**
 * Where a visitor goes after login (spec part 1 §2): a root client account with no DNS type
 * configured goes to the DNS setting page, everyone else to the dashboard. The DNS setting page
 * arrives with a later issue, so the rule applies only once a client page named `dnsSetting`
 * exists; until then that account goes to the dashboard too.
 */
export function landingPath(tier: Tier, self: SelfInfo, clientPages = CLIENT_PAGES): string {
  if (tier === 'client' && self.isRoot && self.dnsType === '') {
    const dnsSetting = clientPages.find((page) => page.name === 'dnsSetting');
    if (dnsSetting) return `/client/${dnsSetting.path}`;
  }
  return consolePath(tier, 'dashboard');
}
