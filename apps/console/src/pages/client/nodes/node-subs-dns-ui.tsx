import {
  type InitializedNode,
  NODE_DNS_STATUSES,
  type NodeDnsStatus,
  SUB_NODE_TYPES,
  type SubNodeType,
} from '@rampart/contract';
import { type TableColumnsType, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChoiceFilter } from '../../../components/ChoiceFilter';

/** The node list's sub-node count and DNS status columns (the DNS status explains itself on hover). */
export function useSubNodeDnsColumns(): TableColumnsType<InitializedNode> {
  const { t } = useTranslation('nodes');
  return [
    { title: t('subNodes.title'), dataIndex: 'subNodeCount' },
    {
      title: t('dns.title'),
      dataIndex: 'dnsStatus',
      render: (value: NodeDnsStatus) => (
        <Tooltip title={t(`dns.hints.${value}`)}>
          <Tag color={value === 'recorded' ? 'green' : 'orange'}>{t(`dns.statuses.${value}`)}</Tag>
        </Tooltip>
      ),
    },
  ];
}

/** The sub-node type and DNS status filters, each with an "all" choice; values from the URL. */
export function SubNodeDnsFilters({
  subNodeType,
  dnsStatus,
  onChange,
}: {
  subNodeType: SubNodeType | undefined;
  dnsStatus: NodeDnsStatus | undefined;
  onChange: (patch: { subNodeType?: string; dnsStatus?: string }) => void;
}) {
  const { t } = useTranslation('nodes');
  return (
    <>
      <ChoiceFilter
        label={t('subNodes.filter')}
        value={subNodeType}
        allLabel={t('subNodes.all')}
        width={200}
        options={SUB_NODE_TYPES.map((value) => ({ value, label: t(`subNodes.types.${value}`) }))}
        onChange={(value) => onChange({ subNodeType: value })}
      />
      <ChoiceFilter
        label={t('dns.filter')}
        value={dnsStatus}
        allLabel={t('dns.all')}
        width={180}
        options={NODE_DNS_STATUSES.map((value) => ({ value, label: t(`dns.statuses.${value}`) }))}
        onChange={(value) => onChange({ dnsStatus: value })}
      />
    </>
  );
}
