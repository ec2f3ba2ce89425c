import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ABUSE_IP_IMPORT_ROWS_MAX,
  ABUSE_IP_SCORE_MAX,
  ABUSE_IP_SCORE_MIN,
  ABUSE_IPS_MAX,
  type AbuseIP,
  type AbuseIPImportMode,
  abuseIPImportSchema,
  abuseIPInputSchema,
  abuseIPRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Radio, Space, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toast, toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { FormModal } from '../../../components/FormModal';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { NumberInput } from '../../../forms/NumberInput';
import type { FieldNameOf } from '../../../forms/server-errors';
import { schemaRules } from '../../../forms/zod-rules';
import { importTextRules } from './abuse-import-rules';

/** The list's filter and sort in the URL. */
const KEYS = ['ip', 'sortBy', 'orderBy'] as const;

interface EntryValues {
  ip: string;
  score: number;
  memo: string;
}

interface ImportValues {
  text: string;
  mode: AbuseIPImportMode;
  defaultScore: number;
}

const entryRules = schemaRules(abuseIPInputSchema);
const importRules = schemaRules(abuseIPImportSchema);
const ENTRY_FIELDS = ['ip', 'score', 'memo'];
/** The add sends one entry as `data.0`: its errors land on the dialog's fields. */
const addedField: FieldNameOf = (path) => {
  const name = path[0] === 'data' ? path[2] : path[0];
  return name !== undefined && ENTRY_FIELDS.includes(name) ? name : undefined;
};

/** A score's colour: the higher, the warmer. */
function scoreColor(score: number): string {
  if (score >= 80) return 'red';
  if (score >= 50) return 'orange';
  return 'default';
}

/**
 * `/client/systemManagement/abuseIPs`: the operator's reputation list (`client/abuseIPs`), the
 * addresses and CIDR blocks with a score from 1 to 100 that its customers' sites' IP trust
 * protection judges clients by. Paged, filtered (an address shows the entries that contain it) and
 * sorted on the server, all in the URL; entries added, edited and deleted one by one or chosen, or
 * imported from a CSV or plain list, merged or replacing the list.
 */
export function AbuseIPsPage() {
  const { t } = useTranslation(['abuseIPs', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const search = useListSearch(KEYS);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(abuseIPRoutes.listAbuseIPs.request.query, search, KEYS),
  };
  const list = useQuery(routeQuery('client', abuseIPRoutes.listAbuseIPs, { query }));
  const [editing, setEditing] = useState<AbuseIP | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const remove = useRouteMutation('client', abuseIPRoutes.deleteAbuseIPs, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('abuseIPs'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });

  const columns: ListColumns<AbuseIP> = [
    { title: t('ip'), dataIndex: 'ip', maxWidth: 200, sorter: true, sortOrder: search.sortOrder('ip') },
    {
      title: t('score'),
      dataIndex: 'score',
      sorter: true,
      sortOrder: search.sortOrder('score'),
      render: (score: number) => <Tag color={scoreColor(score)}>{score}</Tag>,
    },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, maxWidth: 220 },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      sorter: true,
      sortOrder: search.sortOrder('updatedAt'),
      render: (value: string) => <DateTime value={value} />,
    },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    ...(canWrite
      ? [
          actionsColumn<AbuseIP>((entry) => (
            <RowActions
              onEdit={() => setEditing(entry)}
              deleteConfirm={t('deleteConfirm', { ip: entry.ip })}
              deleting={pendingFor(remove, entry.id)}
              onDelete={() => remove.mutate([entry.id])}
            />
          )),
        ]
      : []),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.abuseIPs')}</PageTitle>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 820 }}>
        {t('intro', { max: ABUSE_IPS_MAX })}
      </Typography.Paragraph>
      <ListToolbar style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('search')}
          value={search.filters.ip}
          width={280}
          onSearch={(ip) => search.setFilters({ ip: ip || undefined })}
        />
        {canWrite && (
          <>
            <SelectionDelete
              count={selected.length}
              label={t('bulkDelete', { count: selected.length })}
              confirm={t('bulkDeleteConfirm', { count: selected.length })}
              pending={remove.isPending && remove.variables === selected}
              onDelete={() => remove.mutate(selected)}
            />
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              {t('import')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('create')}
            </Button>
          </>
        )}
      </ListToolbar>
      <ListTable<AbuseIP>
        rowKey="id"
        columns={columns}
        rowSelection={
          canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined
        }
        list={list}
        paging={search}
        emptyText={search.filters.ip ? t('noMatch') : t('empty')}
      />
      <EntryFormModal entry={editing} onClose={() => setEditing(null)} />
      <ImportModal open={importing} onClose={() => setImporting(false)} />
    </>
  );
}

/** Adds an entry ('new') or edits one; null closes. */
function EntryFormModal({ entry, onClose }: { entry: AbuseIP | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('abuseIPs');
  const [form] = Form.useForm<EntryValues>();
  const existing = entry === 'new' ? null : entry;
  const save = useCreateOrUpdate('client', {
    create: abuseIPRoutes.addAbuseIPs,
    update: abuseIPRoutes.updateAbuseIP,
    createInput: (values: EntryValues) => ({ body: { data: [{ ...values, memo: values.memo ?? '' }] } }),
    updateInput: (values) => ({ body: { ...values, memo: values.memo ?? '' } }),
    invalidates: changes('abuseIPs'),
    form: { instance: form, fields: ENTRY_FIELDS },
    createFields: addedField,
    onSuccess: onClose,
  });
  return (
    <FormModal<EntryValues>
      open={entry !== null}
      title={existing ? t('editTitle', { ip: existing.ip }) : t('createTitle')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing ? { ip: existing.ip, score: existing.score, memo: existing.memo } : { ip: '', score: 80, memo: '' }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="ip" label={t('ip')} extra={t('ipHint')} rules={entryRules('ip')} required>
        <Input autoFocus spellCheck={false} placeholder="203.0.113.7" />
      </Form.Item>
      <Form.Item
        name="score"
        label={t('score')}
        extra={t('scoreHint', { min: ABUSE_IP_SCORE_MIN, max: ABUSE_IP_SCORE_MAX })}
        rules={entryRules('score')}
        required
      >
        <NumberInput style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={entryRules('memo')}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}

/**
 * The import: text pasted or read from a chosen file, merged into the list or replacing it, with the
 * score of plain lines. A refused import names its bad lines under the text.
 */
function ImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('abuseIPs');
  const [form] = Form.useForm<ImportValues>();
  const mode = Form.useWatch('mode', form);
  const run = useRouteMutation('client', abuseIPRoutes.importAbuseIPs, {
    input: (values: ImportValues) => ({ body: values }),
    invalidates: changes('abuseIPs'),
    form: { instance: form, fields: ['text', 'mode', 'defaultScore'] },
    onSuccess: (reply) => {
      toast.success(t('imported', reply.data));
      onClose();
    },
  });
  return (
    <FormModal<ImportValues>
      open={open}
      title={t('importTitle')}
      form={form}
      width={720}
      pending={run.isPending}
      onCancel={onClose}
      initialValues={{ text: '', mode: 'merge', defaultScore: ABUSE_IP_SCORE_MAX }}
      onSubmit={(values) => run.mutate(values)}
    >
      <Form.Item
        name="text"
        label={t('importText')}
        extra={t('importHint', { max: ABUSE_IP_IMPORT_ROWS_MAX, csv: '"ip,score,memo"' })}
        rules={[...importRules('text'), ...importTextRules]}
        required
      >
        <Input.TextArea
          rows={10}
          spellCheck={false}
          placeholder={'# ip,score,memo\n203.0.113.7,90,scanner\n198.51.100.0/24,60\n2001:db8::1'}
          style={{ fontFamily: 'monospace' }}
        />
      </Form.Item>
      <Space style={{ marginBottom: 16 }}>
        <Upload
          accept=".csv,.txt,text/csv,text/plain"
          maxCount={1}
          showUploadList={false}
          beforeUpload={async (file) => {
            form.setFieldsValue({ text: await file.text() });
            await form.validateFields(['text']).catch(() => undefined);
            return false;
          }}
        >
          <Button>{t('chooseFile')}</Button>
        </Upload>
      </Space>
      <Form.Item name="mode" label={t('mode')} extra={mode === 'replace' ? t('replaceHint') : t('mergeHint')}>
        <Radio.Group
          options={[
            { value: 'merge', label: t('modes.merge') },
            { value: 'replace', label: t('modes.replace') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="defaultScore"
        label={t('defaultScore')}
        extra={t('defaultScoreHint')}
        rules={importRules('defaultScore')}
      >
        <NumberInput style={{ width: 160 }} />
      </Form.Item>
    </FormModal>
  );
}
