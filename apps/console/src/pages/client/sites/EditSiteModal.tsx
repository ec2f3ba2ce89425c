import { clientSiteRoutes, type OperatorSite } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface EditValues {
  siteName: string;
  memo: string;
}

const rules = schemaRules(clientSiteRoutes.updateSite.request.body, { id: 1 });

/** Renames a site and edits the operator's memo (`PATCH client/site`). */
export function EditSiteModal({ site, onClose }: { site: OperatorSite | null; onClose: () => void }) {
  const { t } = useTranslation(['siteActions', 'sites']);
  const [form] = Form.useForm<EditValues>();
  const update = useRouteMutation('client', clientSiteRoutes.updateSite, {
    input: (values: EditValues) => ({ body: { ...values, id: site?.siteID ?? 0 } }),
    invalidates: changes('sites'),
    success: () => toastText('updateSuccess'),
    form: { instance: form, fields: ['siteName', 'memo'] },
    onSuccess: onClose,
  });
  return (
    <FormModal<EditValues>
      open={site !== null}
      title={t('editTitle')}
      form={form}
      pending={update.isPending}
      onCancel={onClose}
      initialValues={site ? { siteName: site.siteName, memo: site.memo } : {}}
      onSubmit={(values) => update.mutate(values)}
    >
      <Form.Item name="siteName" label={t('sites:name')} rules={rules('siteName')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormModal>
  );
}
