import { type Site, siteRoutes } from '@rampart/contract';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { entryListRules } from '../../../forms/line-rules';
import { i18n } from '../../../i18n/i18n';

interface TagsValues {
  tags: string[];
}

/** Every bad tag named with its place before the save (the contract's list of a site's tags). */
const tagsRules = entryListRules(siteRoutes.setUserSiteTags.request.body.shape.tags, (position, value, message) =>
  i18n.t('sites:tagError', { position, value, message }),
);

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
      <Form.Item name="tags" label={t('tags')} extra={t('create.tagsHint')} rules={tagsRules}>
        <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
      </Form.Item>
    </FormModal>
  );
}
