import type { SelfInfo, Tier } from '@rampart/contract';
import { CLIENT_PAGES } from '../pages/client/client.routes';
import { consolePath } from './console-paths';

/**
 * Where a visitor goes after login (spec part 1 §2): a root client account with no DNS type
 * configured goes to the DNS setting page (the client page named `dnsSetting`), everyone else to
 * the dashboard.
 */
export function landingPath(tier: Tier, self: SelfInfo, clientPages = CLIENT_PAGES): string {
  if (tier === 'client' && self.isRoot && self.dnsType === '') {
    const dnsSetting = clientPages.find((page) => page.name === 'dnsSetting');
    if (dnsSetting) return `/client/${dnsSetting.path}`;
  }
  return consolePath(tier, 'dashboard');
}
