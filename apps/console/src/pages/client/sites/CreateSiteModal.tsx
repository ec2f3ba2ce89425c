import { productRoutes, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { createdText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { AccountPicker } from '../../../features/accounts/AccountPicker';
import { entryListRules } from '../../../forms/line-rules';
import { schemaRules } from '../../../forms/zod-rules';
import { i18n } from '../../../i18n/i18n';

/** The date a DatePicker holds (a Dayjs); only what is needed to send it. */
interface PickedDate {
  endOf(unit: 'day'): { toISOString(): string };
}

interface SiteValues {
  siteName: string;
  userID: number;
  productID: number;
  tags?: string[];
  expiredAt?: PickedDate | null;
}

const FIELDS = ['siteName', 'userID', 'productID', 'tags', 'expiredAt'] as const;
const rules = schemaRules(siteRoutes.createSite.request.body, { expiredAt: null });
/** Every bad tag named with its place before the site is made (the contract's list of a new site's tags). */
const tagsRules = entryListRules(siteRoutes.createSite.request.body.shape.tags, (position, value, message) =>
  i18n.t('sites:tagError', { position, value, message }),
);

/** Creates a site for a customer account on a product, with optional tags and expiry (end of the chosen day). */
export function CreateSiteModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('sites');
  const [form] = Form.useForm<SiteValues>();
  const products = useQuery({ ...routeQuery('client', productRoutes.metaProducts, {}), enabled: open });
  const create = useRouteMutation('client', siteRoutes.createSite, {
    input: ({ expiredAt, tags, ...rest }: SiteValues) => ({
      body: { ...rest, tags: tags ?? [], expiredAt: expiredAt ? expiredAt.endOf('day').toISOString() : null },
    }),
    invalidates: changes('sites'),
    success: createdText,
    form: { instance: form, fields: FIELDS },
    onSuccess: onClose,
  });

  return (
    <FormModal<SiteValues>
      open={open}
      title={t('create.title')}
      form={form}
      width={560}
      pending={create.isPending}
      onCancel={onClose}
      onSubmit={(values) => create.mutate(values)}
    >
      <Form.Item name="siteName" label={t('name')} rules={rules('siteName')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="userID" label={t('customer')} rules={rules('userID')} required>
        <AccountPicker />
      </Form.Item>
      <Form.Item name="productID" label={t('product')} rules={rules('productID')} required>
        <Select
          showSearch
          optionFilterProp="label"
          loading={products.isLoading}
          options={products.data?.data.map((product) => ({ value: product.id, label: product.name }))}
          notFoundContent={t('create.noProducts')}
        />
      </Form.Item>
      <Form.Item name="tags" label={t('tags')} extra={t('create.tagsHint')} rules={tagsRules}>
        <Select mode="tags" aria-label={t('tags')} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
      </Form.Item>
      <Form.Item name="expiredAt" label={t('expiredAt')} extra={t('create.expiryHint')}>
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
}
