import { CompressionCard } from './CompressionCard';
import { ErrorPagesCard } from './ErrorPagesCard';
import { RateLimitsCard } from './RateLimitsCard';

/**
 * The site's settings applied at the edge (`user/site/{id}/setting/…`): HTTP compression,
 * bandwidth rate limits and error pages. Each card loads and saves on its own.
 */
export function SiteOptionsTab({ siteId }: { siteId: number }) {
  return (
    <>
      <CompressionCard siteId={siteId} />
      <RateLimitsCard siteId={siteId} />
      <ErrorPagesCard siteId={siteId} />
    </>
  );
}
