import { type GeoTreeNode, geoRegion, userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { routeQuery } from '../../../../app/route-query';
import { currentLocale } from '../../../../i18n/i18n';
import { ListCell } from './FirewallCells';

/** Regions a cell names before "+N more". */
const REGIONS_SHOWN = 3;
/** The regions cell's width at most (a list of country names would widen the table past 1280 px). */
const REGIONS_WIDTH = 220;

/**
 * The region tree as TreeSelect data: countries by name in the console's language, their cities
 * under them (not with `countriesOnly`: a layer-4 position rule takes countries only).
 */
export function regionTreeData(tree: readonly GeoTreeNode[], countriesOnly = false) {
  const locale = currentLocale();
  return tree.map((country) => {
    const name = geoRegion(country.alpha2)?.names[locale] ?? country.countryName;
    return {
      value: country.id,
      title: `${name} (${country.alpha2})`,
      key: country.id,
      children: (countriesOnly ? [] : country.children).map((city) => ({
        value: city.id,
        title: `${city.cityName}, ${name}`,
        key: city.id,
      })),
    };
  });
}

/** A region id's name: a country's in the console's language, a city's as the tree gives it (else its id). */
function regionName(id: string, cities: ReadonlyMap<string, string>): string {
  const country = geoRegion(id);
  if (country && /^[A-Z]{2}$/.test(id)) return country.names[currentLocale()];
  return cities.get(id) ?? id;
}

/** A rule's regions: the first few by name and how many more, every one on hover. */
export function GeoRegionsCell({ ids }: { ids: readonly string[] }) {
  const hasCities = ids.some((id) => !/^[A-Z]{2}$/.test(id));
  const tree = useQuery({ ...routeQuery('user', userResourceRoutes.listGeoIps, {}), enabled: hasCities });
  const cities = new Map<string, string>();
  for (const country of tree.data?.data ?? []) for (const city of country.children) cities.set(city.id, city.cityName);
  // Within 220 px: the names end in … and the count of the rest stays in sight.
  return (
    <div style={{ maxWidth: REGIONS_WIDTH }}>
      <ListCell texts={ids.map((id) => regionName(id, cities))} shown={REGIONS_SHOWN} testId="firewall-regions" />
    </div>
  );
}
