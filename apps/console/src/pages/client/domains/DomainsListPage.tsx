import { type ClientDomain, clientDomainRoutes, DOMAIN_STATUS_LABELS } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Form, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { localized, toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { FormModal } from '../../../components/FormModal';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { TagList } from '../../../components/TagList';
import { DomainStateBadges, useClientDomainStates } from '../../../features/domains/DomainStateBadges';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { entryListRules } from '../../../forms/line-rules';
import { useLocale } from '../../../i18n';
import { i18n } from '../../../i18n/i18n';
import { DOMAIN_FILTER_KEYS, DomainFilters } from './DomainFilters';

/** Every bad tag named with its place before the save (the contract's list of the domains' tags). */
const tagsRules = entryListRules(
  clientDomainRoutes.setClientDomainTags.request.body.shape.tags,
  (position, value, message) => i18n.t('sites:tagError', { position, value, message }),
);

/**
 * `/client/sitesManagement/domains`: the domains of the operator's sites, paged and filtered on the
 * server (site, name, tags, status; all in the URL), each with its state badges (routes/domain-states.ts);
 * the tags of chosen domains can be replaced.
 */
export function DomainsListPage() {
  const { t } = useTranslation(['clientDomains', 'shell']);
  useLocale(); // the status labels follow a language change
  const search = useListSearch(DOMAIN_FILTER_KEYS);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(clientDomainRoutes.listClientDomains.request.query, search, DOMAIN_FILTER_KEYS),
  };
  const domains = useQuery(routeQuery('client', clientDomainRoutes.listClientDomains, { query }));
  const states = useClientDomainStates(domains.data?.data);
  const [selected, setSelected] = useState<number[]>([]);
  const [tagging, setTagging] = useState(false);
  const [form] = Form.useForm<{ tags: string[] }>();
  const setTags = useRouteMutation('client', clientDomainRoutes.setClientDomainTags, {
    input: ({ tags }: { tags?: string[] }) => ({ body: { ids: selected, tags: tags ?? [] } }),
    invalidates: changes('domains'),
    success: () => toastText('updateTagsSuccess'),
    form: { instance: form, fields: ['tags'] },
    onSuccess: () => setTagging(false),
  });

  const columns: ListColumns<ClientDomain> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('site'), dataIndex: 'siteName', ellipsis: true },
    { title: t('customer'), dataIndex: 'userAccount', ellipsis: true, maxWidth: 140 },
    {
      title: t('status'),
      dataIndex: 'status',
      // The state badges (nodes serving, origin down) wrap under the status within the cell's width.
      render: (value: 0 | 1, domain) => (
        <Flex gap={8} align="center" wrap style={{ maxWidth: 180 }}>
          <Tag color={value === 1 ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
            {localized(DOMAIN_STATUS_LABELS[value])}
          </Tag>
          <DomainStateBadges name={domain.name} state={states.get(domain.id)} />
        </Flex>
      ),
    },
    { title: t('tags'), dataIndex: 'tags', render: (tags: string[]) => <TagList items={tags} /> },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.domains')}</PageTitle>
      <DomainFilters search={search} />
      <Button disabled={selected.length === 0} onClick={() => setTagging(true)} style={{ marginBottom: 16 }}>
        {t('setTags', { count: selected.length })}
      </Button>
      <ListTable<ClientDomain>
        rowKey="id"
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        list={domains}
        paging={search}
        emptyText={t('empty')}
      />
      <FormModal<{ tags: string[] }>
        open={tagging}
        title={t('tagsTitle', { count: selected.length })}
        form={form}
        pending={setTags.isPending}
        onCancel={() => setTagging(false)}
        initialValues={{ tags: [] }}
        onSubmit={(values) => setTags.mutate(values)}
      >
        <Form.Item name="tags" label={t('tags')} extra={t('tagsHint')} rules={tagsRules}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
        </Form.Item>
      </FormModal>
    </>
  );
}
