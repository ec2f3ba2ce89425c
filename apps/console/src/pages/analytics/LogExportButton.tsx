import { LOG_EXPORT_FORMATS, type LogExportFormat } from '@rampart/contract';
import { Button, Checkbox, Form, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { consolePath } from '../../app/console-paths';
import { useRouteMutation } from '../../app/route-query';
import { logExportRoutesOf } from '../../features/logs/log-export-routes';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';

interface ExportChoice {
  format: LogExportFormat;
  gzip: boolean;
}

/**
 * The Logs page's Export button (both consoles): an export of the log on screen — its
 * scope, time range and filters — in the format and compression chosen in a small dialog; once
 * queued, the export list (`logExport`) opens, where it is followed and downloaded.
 */
export function LogExportButton({
  kind,
  body,
}: {
  kind: 'access' | 'waf';
  body: Record<string, unknown> & { startTime: string; endTime: string };
}) {
  const { t } = useTranslation('logExport');
  const tier = useStatisticsTier();
  const routes = logExportRoutesOf(tier);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<ExportChoice>();
  const create = useRouteMutation(tier, routes.createLogExport, {
    input: (choice: ExportChoice) => ({ body: { ...body, type: kind, ...choice } as never }),
    invalidates: [routes.listLogExports],
    success: () => t('created'),
    onSuccess: () => {
      setOpen(false);
      void navigate(consolePath(tier, 'logExport'));
    },
  });
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('export')}</Button>
      <Modal
        open={open}
        title={t(`exportTitle.${kind}`)}
        okText={t('export')}
        confirmLoading={create.isPending}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <p>{t('exportHint')}</p>
        <Form<ExportChoice>
          form={form}
          layout="vertical"
          initialValues={{ format: 'csv', gzip: true }}
          onFinish={(choice) => create.mutate(choice)}
        >
          <Form.Item name="format" label={t('columns.format')}>
            <Radio.Group
              options={LOG_EXPORT_FORMATS.map((format) => ({ value: format, label: t(`formats.${format}`) }))}
            />
          </Form.Item>
          <Form.Item name="gzip" valuePropName="checked">
            <Checkbox>{t('gzip')}</Checkbox>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
