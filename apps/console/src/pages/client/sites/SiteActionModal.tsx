import { cacheTaskRoutes, clientSiteRoutes, type OperatorSite, productRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useCallsMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { AccountPicker } from '../../../features/accounts/AccountPicker';
import { entryListRules } from '../../../forms/line-rules';
import { NumberInput } from '../../../forms/NumberInput';
import { numberFieldRules } from '../../../forms/zod-rules';
import { i18n } from '../../../i18n/i18n';
import { callAuthed } from '../../../session';

/** The changes made through a form (clearing the cache: a confirmation); status, refresh and delete need none. */
export const FORM_ACTIONS = ['product', 'user', 'expiry', 'backup', 'tags', 'limitations', 'clearCache'] as const;
export type FormAction = (typeof FORM_ACTIONS)[number];

/** Every bad tag named with its place before the save (the contract's list of the sites' tags). */
const tagsRules = entryListRules(clientSiteRoutes.setSitesTags.request.body.shape.tags, (position, value, message) =>
  i18n.t('sites:tagError', { position, value, message }),
);

/** The date a DatePicker holds (a Dayjs); only what is needed to send it. */
interface PickedDate {
  endOf(unit: 'day'): { toISOString(): string };
}
interface ActionValues {
  productID?: number;
  userID?: number;
  expiredAt?: PickedDate | null;
  forceBackup?: boolean;
  tags?: string[];
  maxDomains?: number;
  maxPorts?: number;
}

/** One call per action, on every chosen site (the server changes all of them or none). */
function send(action: FormAction, ids: number[], v: ActionValues): Promise<unknown> {
  const c = clientSiteRoutes;
  switch (action) {
    case 'product':
      return callAuthed('client', c.changeSitesProduct, { body: { ids, productID: v.productID ?? 0 } });
    case 'user':
      return callAuthed('client', c.setSitesUser, { body: { ids, userID: v.userID ?? 0 } });
    case 'expiry':
      return callAuthed('client', c.setSitesExpiry, {
        body: { ids, expiredAt: v.expiredAt ? v.expiredAt.endOf('day').toISOString() : null },
      });
    case 'backup':
      return callAuthed('client', c.setSitesForceBackup, { body: { ids, forceBackup: v.forceBackup ?? false } });
    case 'tags':
      return callAuthed('client', c.setSitesTags, { body: { ids, tags: v.tags ?? [] } });
    case 'limitations':
      return callAuthed('client', c.setSitesLimitations, {
        body: { ids, limitations: { maxDomains: v.maxDomains ?? 0, maxPorts: v.maxPorts ?? 0 } },
      });
    case 'clearCache':
      return callAuthed('client', cacheTaskRoutes.clearClientSitesCache, { body: { ids } });
  }
}

/** What the form starts with: the first site's current value where one applies to all. */
function initialValues(action: FormAction, first: OperatorSite | undefined): ActionValues {
  if (action === 'backup') return { forceBackup: !(first?.forceBackup ?? false) };
  if (action === 'tags') return { tags: first?.tags ?? [] };
  if (action === 'limitations') {
    return { maxDomains: first?.limitations.maxDomains ?? 0, maxPorts: first?.limitations.maxPorts ?? 0 };
  }
  return {};
}

const required = [{ required: true }];
/** A site's limit: the contract's field of `limitations`, so 100001 or 1.5 is refused, not sent. */
const limitRules = (field: 'maxDomains' | 'maxPorts') =>
  numberFieldRules(clientSiteRoutes.setSitesLimitations.request.body, `limitations.${field}`);

/** A change to the chosen sites made through a small form (product, customer, expiry, backup, tags, limits). */
export function SiteActionModal(props: { action: FormAction | null; sites: OperatorSite[]; onClose: () => void }) {
  const { action, sites, onClose } = props;
  const { t } = useTranslation(['siteActions', 'sites', 'cacheTasks']);
  const [form] = Form.useForm<ActionValues>();
  const products = useQuery({ ...routeQuery('client', productRoutes.metaProducts, {}), enabled: action === 'product' });
  const run = useCallsMutation(
    'client',
    (values: ActionValues) =>
      send(
        action ?? 'tags',
        sites.map((site) => site.siteID),
        values,
      ),
    {
      invalidates: changes('sites'),
      success: () =>
        toastText(
          action === 'tags' ? 'updateTagsSuccess' : action === 'clearCache' ? 'clearCacheSuccess' : 'setSuccess',
        ),
      form: { instance: form, fields: (path) => (path[0] === 'limitations' ? (path[1] ?? 'maxDomains') : path[0]) },
      onSuccess: onClose,
    },
  );
  const names = sites.map((site) => site.siteName).join(', ');
  const portType = products.data?.data.find((p) => p.id === sites[0]?.productID)?.portType;

  return (
    <FormModal<ActionValues>
      open={action !== null}
      title={action ? t('forSites', { action: t(action), names }) : ''}
      form={form}
      pending={run.isPending}
      onCancel={onClose}
      initialValues={action ? initialValues(action, sites[0]) : {}}
      onSubmit={(values) => run.mutate(values)}
    >
      {action === 'product' && (
        <Form.Item name="productID" label={t('sites:product')} extra={t('hints.product')} rules={required}>
          <Select
            loading={products.isLoading}
            options={products.data?.data
              .filter((product) => portType === undefined || product.portType === portType)
              .map((product) => ({ value: product.id, label: product.name }))}
          />
        </Form.Item>
      )}
      {action === 'user' && (
        <Form.Item name="userID" label={t('sites:customer')} extra={t('hints.user')} rules={required}>
          <AccountPicker />
        </Form.Item>
      )}
      {action === 'expiry' && (
        <Form.Item name="expiredAt" label={t('sites:expiredAt')} extra={t('hints.expiry')}>
          <DatePicker style={{ width: '100%' }} placeholder={t('neverExpires')} />
        </Form.Item>
      )}
      {action === 'backup' && (
        <Form.Item name="forceBackup" label={t('forceBackup')} extra={t('hints.forceBackup')} valuePropName="checked">
          <Switch />
        </Form.Item>
      )}
      {action === 'tags' && (
        <Form.Item name="tags" label={t('sites:tags')} extra={t('hints.tags')} rules={tagsRules}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
        </Form.Item>
      )}
      {action === 'clearCache' && <p>{t('cacheTasks:clearSitesConfirm', { count: sites.length })}</p>}
      {action === 'limitations' && (
        <Form.Item
          name="maxDomains"
          label={t('maxDomains')}
          extra={t('hints.maxDomains')}
          rules={limitRules('maxDomains')}
        >
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
      )}
      {action === 'limitations' && (
        <Form.Item name="maxPorts" label={t('maxPorts')} extra={t('hints.maxPorts')} rules={limitRules('maxPorts')}>
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
      )}
    </FormModal>
  );
}
