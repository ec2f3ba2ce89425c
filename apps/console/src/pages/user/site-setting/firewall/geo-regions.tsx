import { type GeoTreeNode, geoRegion, userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import { currentLocale } from '../../../../i18n/i18n';

/** Regions a cell names before "+N more". */
const REGIONS_SHOWN = 3;

/** The region tree as TreeSelect data: countries by name in the console's language, their cities under them. */
export function regionTreeData(tree: readonly GeoTreeNode[]) {
  const locale = currentLocale();
  return tree.map((country) => {
    const name = geoRegion(country.alpha2)?.names[locale] ?? country.countryName;
    return {
      value: country.id,
      title: `${name} (${country.alpha2})`,
      key: country.id,
      children: country.children.map((city) => ({
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
  const { t } = useTranslation('firewall');
  const hasCities = ids.some((id) => !/^[A-Z]{2}$/.test(id));
  const tree = useQuery({ ...routeQuery('user', userResourceRoutes.listGeoIps, {}), enabled: hasCities });
  const cities = new Map<string, string>();
  for (const country of tree.data?.data ?? []) for (const city of country.children) cities.set(city.id, city.cityName);
  const names = ids.map((id) => regionName(id, cities));
  const more = names.length - REGIONS_SHOWN;
  return (
    <Tooltip
      title={
        <div style={{ maxHeight: 320, overflowY: 'auto' }} data-testid="firewall-regions">
          {names.map((name, i) => (
            <div key={ids[i]}>{name}</div>
          ))}
        </div>
      }
    >
      <Flex gap={4} align="center">
        <Typography.Text ellipsis style={{ minWidth: 0 }}>
          {names.slice(0, REGIONS_SHOWN).join(', ')}
        </Typography.Text>
        {more > 0 && <Tag style={{ marginInlineEnd: 0 }}>{t('moreIps', { count: more })}</Tag>}
      </Flex>
    </Tooltip>
  );
}
