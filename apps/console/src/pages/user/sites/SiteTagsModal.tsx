import { type Site, siteRoutes } from '@rampart/contract';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';

interface TagsValues {
  tags: string[];
}

/** Replaces the tags of one of the customer's sites (`PUT user/site/{siteId}/tags`). */
export function SiteTagsModal({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const { t } = useTranslation('sites');
  const [form] = Form.useForm<TagsValues>();
  const save = useRouteMutation('user', siteRoutes.setUserSiteTags, {
    input: (values: TagsValues) => ({ params: { siteId: site?.siteID ?? 0 }, body: { tags: values.tags ?? [] } }),
    invalidates: changes('sites'),
    success: () => toastText('updateTagsSuccess'),
    form: { instance: form, fields: (path) => path[0] },
    onSuccess: onClose,
  });
  return (
    <FormModal<TagsValues>
      open={site !== null}
      title={t('editTags.title', { name: site?.siteName ?? '' })}
      form={form}
      pending={save.isPending}
      onCancel={onClose}
      initialValues={{ tags: site?.tags ?? [] }}
      onSubmit={(values) => save.mutate(values)}
    >
      <Form.Item name="tags" label={t('tags')} extra={t('create.tagsHint')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
      </Form.Item>
    </FormModal>
  );
}
