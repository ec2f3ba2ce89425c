import { type DnsLineId, type Group, groupLineRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { FitTable, type ListColumns } from '../../../components/FitTable';
import { useDnsLines } from './use-dns-lines';

interface LineCount {
  line: DnsLineId;
  nodeNum: number;
  virtualNodeNum: number;
}

/** A group's DNS lines with how many nodes and virtual nodes each holds; "Manage" opens a line. */
export function GroupLines({
  zoneId,
  group,
  onOpen,
}: {
  zoneId: number;
  group: Group;
  onOpen: (line: DnsLineId) => void;
}) {
  const { t } = useTranslation('lines');
  const { nameOf } = useDnsLines();
  const counts = useQuery(
    routeQuery('client', groupLineRoutes.lineNodeNums, { params: { zoneID: zoneId, groupID: group.id } }),
  );
  const columns: ListColumns<LineCount> = [
    { title: t('line'), dataIndex: 'line', render: (line: string) => nameOf(line) },
    { title: t('nodeNum'), dataIndex: 'nodeNum' },
    { title: t('virtualNodeNum'), dataIndex: 'virtualNodeNum' },
    {
      title: '',
      key: 'open',
      render: (_, row) => (
        <Button size="small" onClick={() => onOpen(row.line)}>
          {t('manage')}
        </Button>
      ),
    },
  ];
  return (
    <FitTable<LineCount>
      rowKey="line"
      size="small"
      aria-label={t('linesOf', { name: group.name })}
      columns={columns}
      dataSource={counts.data?.data}
      loading={counts.isFetching}
      pagination={false}
    />
  );
}
