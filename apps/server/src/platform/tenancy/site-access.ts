import { AppError } from '../errors/app-error.js';
import type { SiteAccessRepository, SiteView } from './site-access.repository.js';

/** The one check every site-scoped customer call starts with: the site must be the caller's. */
export class SiteAccess {
  constructor(private readonly sites: SiteAccessRepository) {}

  async userSite(userId: number, siteId: number): Promise<SiteView> {
    const site = await this.sites.find({ userId }, siteId);
    if (!site) throw new AppError(101018);
    return site;
  }
}
