import { PlusOutlined } from '@ant-design/icons';
import {
  type AnyRoute,
  type DnsLineId,
  groupLineRoutes,
  type LineNode,
  type LineVirtualNode,
  type RouteInput,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type ListQuery, ListTable } from '../../../components/ListTable';
import { SelectionDelete } from '../../../components/RowActions';
import { PickerModal, type PickerQuery } from '../../../features/lists/PickerModal';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { useDnsLines } from './use-dns-lines';

export interface LineRef {
  zoneId: number;
  groupId: number;
  line: DnsLineId;
}

interface MembersProps<T extends { id: number; name: string }> {
  at: LineRef;
  list: ListQuery<T>;
  paging: ReturnType<typeof useLocalPaging>;
  columns: TableColumnsType<T>;
  texts: { empty: string; add: string; search: string; noCandidates: string };
  candidates: (input: { page: number; pageSize: number; value?: string }) => PickerQuery<T>;
  add: { pending: boolean; run: (ids: number[], done: () => void) => void };
  remove: { pending: boolean; run: (ids: number[], done: () => void) => void };
  move: { pending: boolean; run: (ids: number[], toLine: DnsLineId, done: () => void) => void };
}

/** The members of one line (nodes or virtual nodes): pick to add, select to remove or move to another line. */
function LineMembers<T extends { id: number; name: string }>(props: MembersProps<T>) {
  const { t } = useTranslation('lines');
  const { lines } = useDnsLines();
  const { selected, rowSelection, clear } = useSelectedRows<T>();
  const [picking, setPicking] = useState(false);
  const ids = selected.map((row) => row.id);
  return (
    <>
      <Flex gap="small" wrap style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setPicking(true)}>
          {props.texts.add}
        </Button>
        <SelectionDelete
          count={ids.length}
          label={t('removeSelected', { count: ids.length })}
          confirm={t('removeConfirm', { count: ids.length })}
          pending={props.remove.pending}
          onDelete={() => props.remove.run(ids, clear)}
        />
        <Select<DnsLineId>
          style={{ minWidth: 200 }}
          placeholder={t('moveTo')}
          aria-label={t('moveTo')}
          disabled={ids.length === 0 || props.move.pending}
          value={null}
          options={lines.filter((l) => l.id !== props.at.line).map((l) => ({ value: l.id, label: l.name }))}
          onChange={(toLine) => props.move.run(ids, toLine, clear)}
        />
      </Flex>
      <ListTable<T>
        rowKey="id"
        size="small"
        columns={props.columns}
        list={props.list}
        paging={props.paging}
        emptyText={props.texts.empty}
        rowSelection={rowSelection}
      />
      <PickerModal<T>
        open={picking}
        title={props.texts.add}
        searchLabel={props.texts.search}
        emptyText={props.texts.noCandidates}
        columns={props.columns}
        query={props.candidates}
        pending={props.add.pending}
        onPick={(picked) => props.add.run(picked, () => setPicking(false))}
        onClose={() => setPicking(false)}
      />
    </>
  );
}

interface LineRouteSet {
  add: AnyRoute;
  remove: AnyRoute;
  move: AnyRoute;
}

/** Adds, removes and moves through the three calls of a line; `field` names the ids in their bodies. */
function useLineMutations<R extends LineRouteSet>(at: LineRef, routes: R, field: 'nodeIDs' | 'virtualNodeIDs') {
  const params = { zoneID: at.zoneId, groupID: at.groupId, lineID: at.line };
  // The node and virtual-node calls differ only in the name of the ids field; the contract checks it.
  const input = <T extends AnyRoute>(ids: number[], extra: object = {}) =>
    ({ params, body: { [field]: ids, ...extra } }) as unknown as RouteInput<T>;
  const add = useRouteMutation<R['add'], number[]>('client', routes.add, {
    input: (ids: number[]) => input<R['add']>(ids),
    invalidates: changes('lines'),
    success: () => toastText('setSuccess'),
  });
  const remove = useRouteMutation<R['remove'], number[]>('client', routes.remove, {
    input: (ids: number[]) => input<R['remove']>(ids),
    invalidates: changes('lines'),
    success: () => toastText('removeSuccess'),
  });
  const move = useRouteMutation<R['move'], { ids: number[]; toLine: DnsLineId }>('client', routes.move, {
    input: ({ ids, toLine }: { ids: number[]; toLine: DnsLineId }) => input<R['move']>(ids, { toLine }),
    invalidates: changes('lines'),
    success: () => toastText('setSuccess'),
  });
  return {
    params,
    add: { pending: add.isPending, run: (ids: number[], done: () => void) => add.mutate(ids, { onSuccess: done }) },
    remove: {
      pending: remove.isPending,
      run: (ids: number[], done: () => void) => remove.mutate(ids, { onSuccess: done }),
    },
    move: {
      pending: move.isPending,
      run: (ids: number[], toLine: DnsLineId, done: () => void) => move.mutate({ ids, toLine }, { onSuccess: done }),
    },
  };
}

const r = groupLineRoutes;

export function LineNodes({ at }: { at: LineRef }) {
  const { t } = useTranslation('lines');
  const paging = useLocalPaging();
  const calls = useLineMutations(
    at,
    { add: r.addLineNodes, remove: r.removeLineNodes, move: r.moveLineNodes },
    'nodeIDs',
  );
  const list = useQuery(
    routeQuery('client', r.listLineNodes, {
      params: calls.params,
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
  );
  const columns: TableColumnsType<LineNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
  ];
  return (
    <LineMembers<LineNode>
      at={at}
      list={list}
      paging={paging}
      columns={columns}
      texts={{
        empty: t('emptyNodes'),
        add: t('addNodes'),
        search: t('searchNodes'),
        noCandidates: t('noNodeCandidates'),
      }}
      candidates={(query) => routeQuery('client', r.lineNodeCandidates, { params: calls.params, query })}
      {...calls}
    />
  );
}

export function LineVirtualNodes({ at }: { at: LineRef }) {
  const { t } = useTranslation(['lines', 'common']);
  const paging = useLocalPaging();
  const calls = useLineMutations(
    at,
    { add: r.addLineVirtualNodes, remove: r.removeLineVirtualNodes, move: r.moveLineVirtualNodes },
    'virtualNodeIDs',
  );
  const list = useQuery(
    routeQuery('client', r.listLineVirtualNodes, {
      params: calls.params,
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
  );
  const columns: TableColumnsType<LineVirtualNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('portType'), dataIndex: 'portType', render: (v: 7 | 4) => t(`common:portTypes.${v}`) },
    { title: t('recordCount'), dataIndex: 'recordCount' },
  ];
  return (
    <LineMembers<LineVirtualNode>
      at={at}
      list={list}
      paging={paging}
      columns={columns}
      texts={{
        empty: t('emptyVirtualNodes'),
        add: t('addVirtualNodes'),
        search: t('searchVirtualNodes'),
        noCandidates: t('noVirtualNodeCandidates'),
      }}
      candidates={(query) => routeQuery('client', r.lineVirtualNodeCandidates, { params: calls.params, query })}
      {...calls}
    />
  );
}
