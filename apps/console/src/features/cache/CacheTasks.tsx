import {
  CACHE_TASK_URLS_MAX,
  type CacheTask,
  type CacheUrlResult,
  cacheUrlSchema,
  type NodeCommand,
} from '@rampart/contract';
import { Button, Form, Input, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/DateTime';
import { FitTable, type ListColumns } from '../../components/FitTable';
import { type ListQuery, ListTable } from '../../components/ListTable';
import { lineListRules, lineValues } from '../../forms/line-rules';
import { i18n } from '../../i18n/i18n';

/**
 * The console's side of cache purges and preheats (packages/contract/src/routes/cache-tasks.ts):
 * a box of URLs, the tasks a call made, and each node's result per URL.
 */

const STATE_COLORS: Record<CacheTask['state'], string> = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  partial: 'warning',
};

export const urlsRules = lineListRules(cacheUrlSchema, CACHE_TASK_URLS_MAX, (line, message) =>
  i18n.t('cacheTasks:urlLine', { line, message }),
);

/** The URLs of the box, as the calls take them. */
export const urlsOf = (text: string | undefined) => lineValues(text);

/** Refetch every 2 s while a task on screen still runs. */
export function whileRunning(query: { state: { data?: { data: CacheTask[] } | undefined } }): number | false {
  return query.state.data?.data.some((task) => task.state === 'running') ? 2000 : false;
}

/** The URL box of a purge or preheat form. */
export function UrlsField({ hint }: { hint?: string }) {
  const { t } = useTranslation('cacheTasks');
  return (
    <Form.Item name="urls" label={t('urls')} extra={hint ?? t('urlsHint')} rules={urlsRules} required>
      <Input.TextArea rows={4} spellCheck={false} placeholder="https://www.example.com/index.html" />
    </Form.Item>
  );
}

/** A form with the URL box and one button, cleared once its call succeeded (`onSubmit` resolves; it rejects on a refusal). */
export function UrlsForm({
  submit,
  pending,
  hint,
  onSubmit,
}: {
  submit: string;
  pending: boolean;
  hint?: string;
  onSubmit: (urls: string[]) => Promise<unknown>;
}) {
  const [form] = Form.useForm<{ urls: string }>();
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={async (values) => {
        try {
          await onSubmit(urlsOf(values.urls));
          form.resetFields();
        } catch {
          // The mutation showed the refusal; the URLs stay for another try.
        }
      }}
    >
      <UrlsField {...(hint === undefined ? {} : { hint })} />
      <Button type="primary" htmlType="submit" loading={pending}>
        {submit}
      </Button>
    </Form>
  );
}

/** One node's results per URL (purge: entries removed; preheat: HTTP and cache status). */
export function UrlResultsTable({ results, kind }: { results: CacheUrlResult[]; kind: 'purge' | 'preheat' }) {
  const { t } = useTranslation('cacheTasks');
  const columns: ListColumns<CacheUrlResult> = [
    {
      key: 'url',
      title: t('url'),
      dataIndex: 'url',
      render: (url: string) => <Typography.Text code>{url}</Typography.Text>,
    },
    {
      key: 'ok',
      title: t('result'),
      dataIndex: 'ok',
      render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? t('ok') : t('failedUrl')}</Tag>,
    },
    ...(kind === 'preheat'
      ? [
          { key: 'http', title: t('httpStatus'), dataIndex: 'httpStatus', render: (v: number | null) => v ?? '—' },
          { key: 'cache', title: t('cacheStatus'), dataIndex: 'cacheStatus', render: (v: string | null) => v ?? '—' },
        ]
      : [{ key: 'purged', title: t('purged'), dataIndex: 'purged', render: (v: number | null) => v ?? '—' }]),
    { key: 'message', title: '', dataIndex: 'message' },
  ];
  return (
    <FitTable<CacheUrlResult> rowKey="url" size="small" pagination={false} columns={columns} dataSource={results} />
  );
}

/** A node command's per-URL results under its row (node history), when it has any. */
export function commandResultsRow(command: NodeCommand) {
  if (command.results.length === 0) return null;
  return <UrlResultsTable results={command.results} kind={command.type === 'preheat' ? 'preheat' : 'purge'} />;
}

/** Tasks, newest first; a row opens on its nodes and their results per URL. */
export function CacheTasksTable({
  list,
  paging,
}: {
  list: ListQuery<CacheTask>;
  paging: Parameters<typeof ListTable<CacheTask>>[0]['paging'];
}) {
  const { t } = useTranslation(['cacheTasks', 'nodeOps']);
  const columns: ListColumns<CacheTask> = [
    { key: 'createdAt', title: t('createdAt'), dataIndex: 'createdAt', render: (v: string) => <DateTime value={v} /> },
    {
      key: 'state',
      title: t('state'),
      dataIndex: 'state',
      render: (state: CacheTask['state']) => <Tag color={STATE_COLORS[state]}>{t(`states.${state}`)}</Tag>,
    },
    {
      key: 'urls',
      title: t('urls'),
      dataIndex: 'urls',
      render: (urls: string[]) => (urls.length === 1 ? urls[0] : `${urls[0]} (+${urls.length - 1})`),
    },
    { key: 'nodes', title: t('nodes'), render: (_: unknown, task) => task.nodes.length },
  ];
  return (
    <ListTable<CacheTask>
      rowKey="id"
      size="small"
      list={list}
      paging={paging}
      quietRefresh
      emptyText={t('noTasks')}
      columns={columns}
      expandable={{
        rowExpandable: (task) => task.nodes.length > 0,
        expandedRowRender: (task) =>
          task.nodes.map((node) => (
            <div key={node.commandId} style={{ marginBottom: 12 }}>
              <Typography.Text strong>{node.nodeName}</Typography.Text>{' '}
              <Tag>{t(`nodeOps:commandStatuses.${node.status}`)}</Tag> {node.message}
              {node.results.length > 0 && <UrlResultsTable results={node.results} kind={task.kind} />}
            </div>
          )),
      }}
    />
  );
}
