import {
  PORT_TYPES,
  PRODUCT_THROTTLE_KBPS_DEFAULT,
  type Product,
  productRoutes,
  TRAFFIC_RESTRICTIONS,
  type TrafficRestriction,
} from '@rampart/contract';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { useCreateOrUpdate } from '../../../app/use-create-or-update';
import { FormModal } from '../../../components/FormModal';
import { bytesToGb, gbToBytes } from '../../../features/traffic/traffic-units';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { type GroupRef, GroupsPicker } from './GroupsPicker';

interface ProductValues {
  name: string;
  portType: 7 | 4;
  memo: string;
  mainGroups: GroupRef[];
  backupGroups: GroupRef[];
  siteLimit: number;
  /** The monthly allowance in GB (the body's `monthlyTraffic` is bytes). */
  monthlyGb: number;
  overTraffic: TrafficRestriction;
  throttleKbps: number;
}

/** The form holds the groups, the body their ids: form field → body field. */
const BODY_FIELD: Record<string, string> = {
  mainGroups: 'mainGroupIDs',
  backupGroups: 'backupGroupIDs',
  monthlyGb: 'monthlyTraffic',
};
/** Body field → form field, for the field errors of a 101003 reply. */
const FORM_FIELD: Record<string, string> = {
  name: 'name',
  portType: 'portType',
  memo: 'memo',
  mainGroupIDs: 'mainGroups',
  backupGroupIDs: 'backupGroups',
  siteLimit: 'siteLimit',
  monthlyTraffic: 'monthlyGb',
  overTraffic: 'overTraffic',
  throttleKbps: 'throttleKbps',
};

const groupIds = (groups: unknown) => (Array.isArray(groups) ? groups.map((group: GroupRef) => group.id) : []);

function toBody({ mainGroups, backupGroups, monthlyGb, ...rest }: ProductValues) {
  return {
    ...rest,
    mainGroupIDs: groupIds(mainGroups),
    backupGroupIDs: groupIds(backupGroups),
    monthlyTraffic: gbToBytes(monthlyGb),
  };
}

/** The form's rules check the body it becomes, each issue reported on the field it came from. */
const rules = schemaRules(
  z.preprocess((values) => toBody(values as ProductValues), productRoutes.createProduct.request.body),
  {},
  (field) => BODY_FIELD[field] ?? field,
);

/**
 * Creates or edits a product: name, port type, memo, sites limit, main and backup groups picked across
 * zones, and the monthly traffic allowance with what a site over it gets.
 */
export function ProductFormModal({ product, onClose }: { product: Product | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation(['products', 'common']);
  const [form] = Form.useForm<ProductValues>();
  const fields = { instance: form, fields: (path: readonly string[]) => FORM_FIELD[path[0] ?? ''] };
  const save = useCreateOrUpdate('client', {
    create: productRoutes.createProduct,
    update: productRoutes.updateProduct,
    createInput: (values: ProductValues) => ({ body: toBody(values) }),
    updateInput: ({ id, ...values }) => ({ body: { ...toBody(values), id } }),
    invalidates: changes('products'),
    form: fields,
    onSuccess: onClose,
  });
  const existing = product === 'new' ? null : product;
  // The opening values until the watches have read the form (see forms/use-field-value.ts).
  const portType = Form.useWatch('portType', form) ?? existing?.portType ?? 7;
  const overTraffic = Form.useWatch('overTraffic', form) ?? existing?.overTraffic ?? 'pause';

  return (
    <FormModal<ProductValues>
      open={product !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={
        existing
          ? {
              name: existing.name,
              portType: existing.portType,
              memo: existing.memo,
              mainGroups: existing.mainGroups,
              backupGroups: existing.backupGroups,
              siteLimit: existing.siteLimit,
              monthlyGb: bytesToGb(existing.monthlyTraffic),
              overTraffic: existing.overTraffic,
              throttleKbps: existing.throttleKbps,
            }
          : {
              portType: 7,
              memo: '',
              mainGroups: [],
              backupGroups: [],
              siteLimit: 0,
              monthlyGb: 0,
              overTraffic: 'pause',
              throttleKbps: PRODUCT_THROTTLE_KBPS_DEFAULT,
            }
      }
      onSubmit={(values) => save.submit(values, existing)}
    >
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="portType" label={t('portType')} required>
        <Radio.Group
          options={PORT_TYPES.map((value) => ({ value, label: t(`common:portTypes.${value}`) }))}
          onChange={() => form.setFieldsValue({ mainGroups: [], backupGroups: [] })}
        />
      </Form.Item>
      <Form.Item name="mainGroups" label={t('mainGroups')} rules={rules('mainGroups')} required>
        <GroupsPicker portType={portType} isBackup={false} />
      </Form.Item>
      <Form.Item name="backupGroups" label={t('backupGroups')}>
        <GroupsPicker portType={portType} isBackup />
      </Form.Item>
      <Form.Item name="siteLimit" label={t('siteLimit')} extra={t('siteLimitHint')} rules={rules('siteLimit')}>
        <NumberInput style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="monthlyGb"
        label={t('monthlyTraffic')}
        extra={t('monthlyTrafficHint')}
        rules={rules('monthlyGb')}
      >
        <NumberInput style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="overTraffic" label={t('overTraffic')}>
        <Radio.Group
          options={TRAFFIC_RESTRICTIONS.map((value) => ({ value, label: t(`overTrafficOptions.${value}`) }))}
        />
      </Form.Item>
      {/* Kept while hidden: the product keeps its throttle for when it is chosen again. */}
      <Form.Item
        name="throttleKbps"
        label={t('throttleKbps')}
        rules={rules('throttleKbps')}
        hidden={overTraffic !== 'throttle'}
      >
        <NumberInput style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="memo" label={t('memo')} rules={rules('memo')}>
        <Input.TextArea rows={2} />
      </Form.Item>
    </FormModal>
  );
}
