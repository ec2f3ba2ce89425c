import { groupRoutes, type productGroupRefSchema, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { routeQuery } from '../../../app/route-query';

/** A group a product uses: its id, name and zone (what `client/products` answers for each group). */
export type GroupRef = z.infer<typeof productGroupRefSchema>;

interface GroupsPickerProps {
  id?: string;
  value?: GroupRef[];
  onChange?: (value: GroupRef[]) => void;
  portType: 7 | 4;
  isBackup: boolean;
}

/**
 * Picks groups across zones (a form control): choose a zone, then its groups of the product's port
 * type (`client/zone/{zoneID}/metaGroups`, main or backup ones); the chosen groups of every zone
 * stay listed as tags, each removable.
 */
export function GroupsPicker({ id, value = [], onChange, portType, isBackup }: GroupsPickerProps) {
  const { t } = useTranslation('products');
  const [zoneID, setZoneID] = useState<number | undefined>(undefined);
  const zones = useQuery(routeQuery('client', zoneRoutes.metaZones, {}));
  const groups = useQuery({
    ...routeQuery('client', groupRoutes.metaGroups, {
      params: { zoneID: zoneID ?? 0 },
      query: { portType, isBackup: isBackup ? 'true' : 'false' },
    }),
    enabled: zoneID !== undefined,
  });
  const zoneName = (zoneId: number) => zones.data?.data.find((zone) => zone.id === zoneId)?.name;
  const inZone = value.filter((group) => group.zoneId === zoneID).map((group) => group.id);

  const pickInZone = (ids: number[]) => {
    if (zoneID === undefined) return;
    const picked = (groups.data?.data ?? [])
      .filter((group) => ids.includes(group.id))
      .map((group) => ({ id: group.id, name: group.name, zoneId: zoneID }));
    onChange?.([...value.filter((group) => group.zoneId !== zoneID), ...picked]);
  };

  return (
    <Flex vertical gap="small">
      <Flex gap="small">
        <Select
          style={{ width: 200 }}
          placeholder={t('pickZone')}
          aria-label={t('pickZone')}
          value={zoneID}
          loading={zones.isLoading}
          showSearch
          optionFilterProp="label"
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={setZoneID}
        />
        <Select
          id={id}
          mode="multiple"
          style={{ flex: 1 }}
          placeholder={t('pickGroups')}
          disabled={zoneID === undefined}
          loading={groups.isLoading && zoneID !== undefined}
          value={inZone}
          options={groups.data?.data.map((group) => ({ value: group.id, label: group.name }))}
          onChange={pickInZone}
          notFoundContent={t('noGroupsInZone')}
        />
      </Flex>
      <div>
        {value.length === 0
          ? t('noneChosen')
          : value.map((group) => (
              <Tag key={group.id} closable onClose={() => onChange?.(value.filter((other) => other.id !== group.id))}>
                {zoneName(group.zoneId) ? `${zoneName(group.zoneId)} / ${group.name}` : group.name}
              </Tag>
            ))}
      </div>
    </Flex>
  );
}
