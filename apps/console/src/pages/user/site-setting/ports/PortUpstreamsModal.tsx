import { type DomainUpstream, portUpstreamInputSchema, type SitePort, sitePortRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Flex, Form, Input, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { createdText, toastText } from '../../../../app/toast';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';

interface NewUpstream {
  ip: string;
  port: number;
  weight: number;
  backup: boolean;
}

const shape = portUpstreamInputSchema.shape;

/**
 * One port's upstreams: the list, delete one (the server keeps one that serves: 401008), add one.
 */
export function PortUpstreamsModal({
  siteId,
  port,
  onClose,
}: {
  siteId: number;
  port: SitePort | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['ports', 'common']);
  const [form] = Form.useForm<NewUpstream>();
  const params = { siteId, portId: port?.id ?? 0 };
  const list = useQuery({
    ...routeQuery('user', sitePortRoutes.listSitePortUpstreams, { params }),
    enabled: port !== null,
  });
  const invalidates = changes('sitePorts');
  const remove = useRouteMutation('user', sitePortRoutes.deleteSitePortUpstreams, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates,
    success: () => toastText('deleteSuccess'),
  });
  const add = useRouteMutation('user', sitePortRoutes.addSitePortUpstreams, {
    input: (v: NewUpstream) => ({ params, body: { upstreams: [{ ...v, backup: v.backup ?? false }] } }),
    invalidates,
    success: createdText,
    form: { instance: form, fields: (path) => (path[0] === 'upstreams' ? path[2] : undefined) },
    onSuccess: () => form.resetFields(),
  });

  const columns: ListColumns<DomainUpstream> = [
    { title: t('upstream.ip'), dataIndex: 'ip' },
    { title: t('upstream.port'), dataIndex: 'port' },
    { title: t('upstream.weight'), dataIndex: 'weight' },
    {
      title: t('upstream.role'),
      key: 'role',
      render: (_, u) => (
        <>
          {u.backup && <Tag>{t('backup')}</Tag>}
          {u.status === 0 && <Tag color="red">{t('off')}</Tag>}
        </>
      ),
    },
    actionsColumn((u) => (
      <RowActions
        deleteConfirm={t('upstream.deleteConfirm', { address: `${u.ip}:${u.port}` })}
        deleting={pendingFor(remove, u.id)}
        onDelete={() => remove.mutate(u.id)}
      />
    )),
  ];

  return (
    <Modal
      open={port !== null}
      title={t('upstream.title', { port: port?.port ?? '' })}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <FitTable<DomainUpstream>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isLoading}
        pagination={false}
        style={{ marginBottom: 16 }}
      />
      <Form<NewUpstream>
        form={form}
        layout="inline"
        initialValues={{ port: port?.port ?? 80, weight: 1, backup: false }}
        onFinish={(v) => add.mutate(v)}
      >
        <Flex gap="small" wrap align="flex-start">
          <Form.Item name="ip" rules={valueRules(shape.ip)}>
            <Input placeholder={t('upstream.ip')} aria-label={t('upstream.newIp')} />
          </Form.Item>
          <Form.Item name="port" rules={valueRules(shape.port)}>
            <NumberInput aria-label={t('upstream.newPort')} />
          </Form.Item>
          <Form.Item name="weight" rules={valueRules(shape.weight)}>
            <NumberInput aria-label={t('upstream.newWeight')} />
          </Form.Item>
          <Form.Item name="backup" valuePropName="checked">
            <Checkbox>{t('backup')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            {t('upstream.add')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
