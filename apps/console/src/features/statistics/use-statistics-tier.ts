import { useTier } from '../../app/tier-context';
import { isStatisticsTier, type StatisticsTier } from './statistics-routes';

/** The console of a statistics view: the customer's or the operator's (the admin console has none). */
export function useStatisticsTier(): StatisticsTier {
  const tier = useTier();
  if (!isStatisticsTier(tier)) throw new Error(`no statistics in the ${tier} console`);
  return tier;
}
