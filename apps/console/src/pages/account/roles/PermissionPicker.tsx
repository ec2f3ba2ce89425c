import { roleRoutes, type Tier } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeKey, routeQuery } from '../../../app/route-query';
import { useLocale } from '../../../i18n/use-locale';

/**
 * The meta roles of the caller (`{auth}/metaRoles`: its tier's keys that it holds, grouped as its
 * console's menus, named in its language), one group of check boxes each. A form control: `value`
 * is the chosen keys. Keys of the value that the list does not offer stay chosen (the server says
 * if they may not be given).
 */
export function PermissionPicker({
  tier,
  value = [],
  onChange,
}: {
  tier: Tier;
  value?: string[];
  onChange?: (keys: string[]) => void;
}) {
  const { t } = useTranslation(['roles', 'common']);
  const [locale] = useLocale();
  const input = { params: { auth: tier } };
  // The names come in the interface language: a language switch reads them again.
  const meta = useQuery({
    ...routeQuery(tier, roleRoutes.metaRoles, input),
    queryKey: [...routeKey(tier, roleRoutes.metaRoles, input), locale],
  });
  if (meta.isPending) return <Spin size="small" />;
  if (meta.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('metaFailed')}
        action={
          <Button size="small" onClick={() => void meta.refetch()}>
            {t('common:actions.retry')}
          </Button>
        }
      />
    );
  }
  const groups = meta.data.data;
  const offered = new Set(groups.flatMap((group) => group.permissions.map((p) => p.key)));
  const others = value.filter((key) => !offered.has(key));
  return (
    <Flex vertical gap={12}>
      {groups.map((group) => {
        const keys = group.permissions.map((p) => p.key);
        const chosen = value.filter((key) => keys.includes(key));
        return (
          <div key={group.key}>
            <Typography.Text strong>{group.name}</Typography.Text>
            <div>
              <Checkbox.Group
                aria-label={t('permissionsOf', { group: group.name })}
                value={chosen}
                options={group.permissions.map((p) => ({ value: p.key, label: p.name }))}
                onChange={(next) => onChange?.([...value.filter((key) => !keys.includes(key)), ...(next as string[])])}
              />
            </div>
          </div>
        );
      })}
      {others.length > 0 && <Typography.Text type="secondary">{others.join(', ')}</Typography.Text>}
    </Flex>
  );
}
