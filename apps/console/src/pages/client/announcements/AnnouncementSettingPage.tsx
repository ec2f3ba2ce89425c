import { PlusOutlined } from '@ant-design/icons';
import { type Announcement, announcementRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { FormModal } from '../../../components/FormModal';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions, SelectionDelete } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { schemaRules } from '../../../forms/zod-rules';

interface AnnouncementValues {
  title: string;
  content: string;
  running: boolean;
}

const rules = schemaRules(announcementRoutes.createAnnouncement.request.body);
const FIELDS = ['title', 'content', 'running'];

/**
 * `/client/userManagement/announcementSetting`: the operator's announcements, newest first and
 * paged in the URL, with their ordinal; create, edit, delete (one or the chosen ones) and the
 * running flag switched in the list. Running ones show on the customers' dashboards.
 */
export function AnnouncementSettingPage() {
  const { t } = useTranslation(['announcements', 'common', 'shell']);
  const search = useListSearch([]);
  const list = useQuery(
    routeQuery('client', announcementRoutes.listClientAnnouncements, {
      query: { page: search.page, pageSize: search.pageSize },
    }),
  );
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const setRunning = useRouteMutation('client', announcementRoutes.updateAnnouncement, {
    // The PUT replaces every field: title and content go back as they are.
    input: ({ item, running }: { item: Announcement; running: boolean }) => ({
      body: { id: item.id, title: item.title, content: item.content, running },
    }),
    invalidates: changes('announcements'),
    success: () => toastText('setSuccess'),
  });
  const remove = useRouteMutation('client', announcementRoutes.deleteAnnouncements, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('announcements'),
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });
  const first = (search.page - 1) * search.pageSize;

  const columns: ListColumns<Announcement> = [
    { title: t('ordinal'), key: 'ordinal', width: 72, render: (_, _item, index) => first + index + 1 },
    { title: t('title'), dataIndex: 'title', ellipsis: true },
    {
      title: t('content'),
      dataIndex: 'content',
      render: (content: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0, maxWidth: 280 }}>
          {content}
        </Typography.Paragraph>
      ),
    },
    {
      title: t('running'),
      dataIndex: 'running',
      render: (running: boolean, item) => (
        <Switch
          size="small"
          checked={running}
          aria-label={t('runningOf', { title: item.title })}
          loading={setRunning.isPending && setRunning.variables?.item.id === item.id}
          onChange={(next) => setRunning.mutate({ item, running: next })}
        />
      ),
    },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    {
      title: t('updatedAt'),
      dataIndex: 'updatedAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    actionsColumn((item) => (
      <RowActions
        onEdit={() => setEditing(item)}
        deleteConfirm={t('deleteConfirm', { title: item.title })}
        deleting={pendingFor(remove, item.id)}
        onDelete={() => remove.mutate([item.id])}
      />
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.announcementSetting')}</PageTitle>
      <ListToolbar style={{ marginBottom: 16 }}>
        <SelectionDelete
          count={selected.length}
          label={t('bulkDelete', { count: selected.length })}
          confirm={t('bulkDeleteConfirm', { count: selected.length })}
          pending={remove.isPending && remove.variables === selected}
          onDelete={() => remove.mutate(selected)}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      </ListToolbar>
      <ListTable<Announcement>
        rowKey="id"
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        list={list}
        paging={search}
        emptyText={t('empty')}
      />
      <AnnouncementFormModal announcement={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/** Creates an announcement ('new') or edits one; null closes. */
function AnnouncementFormModal({
  announcement,
  onClose,
}: {
  announcement: Announcement | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('announcements');
  const [form] = Form.useForm<AnnouncementValues>();
  const existing = announcement === 'new' ? null : announcement;
  const save = useCreateOrUpdate('client', {
    create: announcementRoutes.createAnnouncement,
    update: announcementRoutes.updateAnnouncement,
    createInput: (values: AnnouncementValues) => ({ body: { ...values, content: values.content ?? '' } }),
    updateInput: (values) => ({ body: { ...values, content: values.content ?? '' } }),
    invalidates: changes('announcements'),
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });
  return (
    <FormModal<AnnouncementValues>
      open={announcement !== null}
      title={existing ? t('editTitle', { title: existing.title }) : t('createTitle')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? { title: existing.title, content: existing.content, running: existing.running }
          : { title: '', content: '', running: false }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="title" label={t('title')} rules={rules('title')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="content" label={t('content')} rules={rules('content')}>
        <Input.TextArea rows={6} />
      </Form.Item>
      <Form.Item name="running" label={t('running')} extra={t('runningHint')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
