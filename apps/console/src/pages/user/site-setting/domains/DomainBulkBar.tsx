import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { CNAME_CHECK_MAX, DOMAIN_STATUS, domainRoutes } from '@rampart/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../../app/show-error';
import { ListToolbar } from '../../../../components/FitTable';
import { SelectionDelete } from '../../../../components/RowActions';
import { saveResponse } from '../../../../features/download/save-file';
import { callAuthedRaw } from '../../../../session/call-authed';
import type { useDomainActions } from './domain-actions';
import type { DomainDialog } from './domain-list';

interface DomainBulkBarProps {
  siteId: number;
  canWrite: boolean;
  selected: number[];
  actions: ReturnType<typeof useDomainActions>;
  onOpen: (dialog: DomainDialog) => void;
}

/** The calls on the chosen domains (or, for export, on all of them) and the buttons that open the add dialogs. */
export function DomainBulkBar({ siteId, canWrite, selected, actions, onOpen }: DomainBulkBarProps) {
  const { t } = useTranslation(['domains', 'common']);
  const { setStatus, checkCname, remove } = actions;
  const exportFile = useMutation({
    mutationFn: async (ids: number[]) =>
      saveResponse(
        await callAuthedRaw('user', domainRoutes.exportDomains, { params: { siteId }, body: { ids } }),
        `domains-site${siteId}.csv`,
      ),
    onError: (error) => showApiError(error),
  });
  const none = selected.length === 0;
  return (
    <ListToolbar style={{ marginBottom: 16 }}>
      <Space wrap>
        {canWrite && (
          <>
            <Button
              disabled={none}
              onClick={() => setStatus.mutate({ domainIDs: selected, status: DOMAIN_STATUS.enabled })}
            >
              {t('bulk.enable', { count: selected.length })}
            </Button>
            <Button
              disabled={none}
              onClick={() => setStatus.mutate({ domainIDs: selected, status: DOMAIN_STATUS.disabled })}
            >
              {t('bulk.disable', { count: selected.length })}
            </Button>
            <SelectionDelete
              count={selected.length}
              label={t('bulk.delete', { count: selected.length })}
              confirm={t('bulk.deleteConfirm', { count: selected.length })}
              pending={remove.isPending && remove.variables === selected}
              onDelete={() => remove.mutate(selected)}
            />
            <Button disabled={none} onClick={() => onOpen({ kind: 'tags', ids: selected })}>
              {t('bulk.tags', { count: selected.length })}
            </Button>
            <Button disabled={none} onClick={() => onOpen({ kind: 'copy', ids: selected })}>
              {t('bulk.copy', { count: selected.length })}
            </Button>
            <Button
              disabled={none || selected.length > CNAME_CHECK_MAX}
              loading={checkCname.isPending}
              onClick={() => checkCname.mutate(selected)}
            >
              {t('bulk.checkCname', { count: selected.length })}
            </Button>
            <Button onClick={() => onOpen({ kind: 'upstreamIP', ids: selected })}>{t('bulk.changeIP')}</Button>
          </>
        )}
        <Button icon={<DownloadOutlined />} loading={exportFile.isPending} onClick={() => exportFile.mutate(selected)}>
          {none ? t('bulk.exportAll') : t('bulk.export', { count: selected.length })}
        </Button>
      </Space>
      {canWrite && (
        <Space wrap>
          <Button onClick={() => onOpen({ kind: 'delete' })}>{t('byNames.deleteOpen')}</Button>
          <Button onClick={() => onOpen({ kind: 'from' })}>{t('byNames.fromOpen')}</Button>
          <Button onClick={() => onOpen({ kind: 'simple' })}>{t('byNames.simpleOpen')}</Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => onOpen({ kind: 'edit', domain: 'new' })}>
            {t('add')}
          </Button>
        </Space>
      )}
    </ListToolbar>
  );
}
