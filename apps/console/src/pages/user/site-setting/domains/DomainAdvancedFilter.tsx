import { FilterOutlined } from '@ant-design/icons';
import { DOMAIN_CERT_STATUS, domainRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Drawer, Flex, Form, Input, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import type { ListSearch } from '../../../../features/lists/use-list-search';

/** URL keys of the advanced filter (spec part 1 §3 "Domain advanced filter"). */
export const ADVANCED_FILTER_KEYS = [
  'tags',
  'certStatus',
  'createdAtStart',
  'createdAtEnd',
  'updatedAtStart',
  'updatedAtEnd',
] as const;
type AdvancedKey = (typeof ADVANCED_FILTER_KEYS)[number];
const TIME_KEYS = ['createdAtStart', 'createdAtEnd', 'updatedAtStart', 'updatedAtEnd'] as const;

interface AdvancedValues {
  tags: string[];
  certStatus?: string;
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
}

/** An ISO instant from the URL as a `datetime-local` value in the browser's zone ('' if unreadable). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value as an ISO instant; the end of a range takes the whole minute. */
export function fromLocalInput(value: string | undefined, end = false): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  return new Date(date.getTime() + (end ? 59_999 : 0)).toISOString();
}

/**
 * The domain list's advanced filter: a drawer with tags (any of), certificate status and the
 * created / updated ranges. Applying writes them to the URL; the list reads them from there.
 */
export function DomainAdvancedFilter<K extends string>({
  siteId,
  search,
}: {
  siteId: number;
  search: ListSearch<K | AdvancedKey>;
}) {
  const { t } = useTranslation('domains');
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<AdvancedValues>();
  const tags = useQuery({
    ...routeQuery('user', domainRoutes.userDomainsTags, { body: { siteIDs: [siteId] } }),
    enabled: open,
  });
  const { filters } = search;
  const active = ADVANCED_FILTER_KEYS.filter((key) => (key === 'tags' ? search.all('tags').length > 0 : filters[key]));

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({
      tags: search.all('tags'),
      certStatus: filters.certStatus,
      ...Object.fromEntries(TIME_KEYS.map((key) => [key, toLocalInput(filters[key])])),
    });
  }, [open, form, search, filters]);

  const apply = (values: AdvancedValues) => {
    search.setFilters({
      tags: values.tags ?? [],
      certStatus: values.certStatus,
      createdAtStart: fromLocalInput(values.createdAtStart),
      createdAtEnd: fromLocalInput(values.createdAtEnd, true),
      updatedAtStart: fromLocalInput(values.updatedAtStart),
      updatedAtEnd: fromLocalInput(values.updatedAtEnd, true),
    } as Parameters<typeof search.setFilters>[0]);
    setOpen(false);
  };
  const reset = () => {
    search.setFilters(
      Object.fromEntries(ADVANCED_FILTER_KEYS.map((key) => [key, undefined])) as Parameters<
        typeof search.setFilters
      >[0],
    );
    setOpen(false);
  };

  return (
    <>
      <Badge count={active.length} size="small">
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)}>
          {t('advanced.open')}
        </Button>
      </Badge>
      <Drawer
        open={open}
        title={t('advanced.title')}
        onClose={() => setOpen(false)}
        destroyOnHidden
        footer={
          <Space>
            <Button onClick={reset}>{t('advanced.reset')}</Button>
            <Button type="primary" onClick={() => form.submit()}>
              {t('advanced.apply')}
            </Button>
          </Space>
        }
      >
        <Form<AdvancedValues> form={form} layout="vertical" onFinish={apply}>
          <Form.Item name="tags" label={t('tags')}>
            <Select
              mode="multiple"
              allowClear
              aria-label={t('tags')}
              placeholder={t('advanced.anyTag')}
              options={tags.data?.data.map((tag) => ({ value: tag, label: tag }))}
            />
          </Form.Item>
          <Form.Item name="certStatus" label={t('advanced.certStatus')}>
            <Select
              allowClear
              aria-label={t('advanced.certStatus')}
              placeholder={t('advanced.all')}
              options={(['none', 'valid', 'expired'] as const).map((key) => ({
                value: String(DOMAIN_CERT_STATUS[key]),
                label: t(`certStatuses.${key}`),
              }))}
            />
          </Form.Item>
          <RangeInputs label={t('advanced.created')} start="createdAtStart" end="createdAtEnd" />
          <RangeInputs label={t('advanced.updated')} start="updatedAtStart" end="updatedAtEnd" />
        </Form>
      </Drawer>
    </>
  );
}

function RangeInputs({ label, start, end }: { label: string; start: AdvancedKey; end: AdvancedKey }) {
  const { t } = useTranslation('domains');
  return (
    <Form.Item label={label}>
      <Flex gap="small" align="center">
        <Form.Item name={start} noStyle>
          <Input type="datetime-local" aria-label={t('advanced.from', { range: label })} />
        </Form.Item>
        –
        <Form.Item
          name={end}
          noStyle
          dependencies={[start]}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_rule, value?: string) => {
                const from = getFieldValue(start) as string | undefined;
                if (from && value && value < from) throw new Error(t('advanced.endBeforeStart'));
              },
            }),
          ]}
        >
          <Input type="datetime-local" aria-label={t('advanced.to', { range: label })} />
        </Form.Item>
      </Flex>
    </Form.Item>
  );
}
