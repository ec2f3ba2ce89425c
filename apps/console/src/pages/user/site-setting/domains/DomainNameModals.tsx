import { DOMAIN_STATUS, domainRoutes, numberedLines } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { createdText, toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { existingNamesRules, NEW_UPSTREAM, namesRules, type UpstreamRow } from './domain-form';
import { UpstreamsList } from './UpstreamsList';

interface NamesModalProps {
  siteId: number;
  open: boolean;
  onClose: () => void;
}

/** The names box of these forms as the body takes it: one name a line, blank lines left out. */
export function namesOf(text: string): string[] {
  return numberedLines(text ?? '').map(({ value }) => value);
}

/** `names.3` → the names box; `upstreams.0.ip` → that row's field; anything else on its first segment. */
const namesFieldOf =
  (others: readonly string[]): FieldNameOf =>
  (path) => {
    const [root, index, ...rest] = path;
    if (root === 'names') return 'names';
    if (root === 'upstreams') return index === undefined ? undefined : ['upstreams', Number(index), ...rest];
    return root !== undefined && others.includes(root) ? root : undefined;
  };

interface SimpleValues {
  names: string;
  upstreams: UpstreamRow[];
}

/**
 * Quick add (`POST simpleDomains`): names, one a line, sharing the given origins and the default
 * settings. Names already taken come back as a 101009 listing each name.
 */
export function SimpleDomainsModal({ siteId, open, onClose }: NamesModalProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<SimpleValues>();
  const create = useRouteMutation('user', domainRoutes.createSimpleDomains, {
    input: (values: SimpleValues) => ({
      params: { siteId },
      body: {
        names: namesOf(values.names),
        upstreams: values.upstreams.map((row) => ({ ...row, port: Number(row.port) })),
      },
    }),
    invalidates: changes('domains'),
    success: createdText,
    form: { instance: form, fields: namesFieldOf([]) },
    onSuccess: onClose,
  });
  return (
    <FormModal<SimpleValues>
      open={open}
      title={t('byNames.simpleTitle')}
      form={form}
      width={720}
      pending={create.isPending}
      onCancel={onClose}
      initialValues={{ names: '', upstreams: [NEW_UPSTREAM] }}
      onSubmit={(values) => create.mutate(values)}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('byNames.simpleHint')} />
      <Form.Item name="names" label={t('form.names')} extra={t('form.namesHint')} rules={namesRules} required>
        <Input.TextArea rows={4} autoFocus spellCheck={false} />
      </Form.Item>
      <Form.Item label={t('form.upstreams')} required>
        <UpstreamsList />
      </Form.Item>
    </FormModal>
  );
}

interface FromValues {
  domainID: number;
  names: string;
  enabled: boolean;
}

/**
 * Add like another domain (`POST domains/createFrom`): new names get the origins, settings and tags
 * of one of the site's domains (its certificate only where it covers the name).
 */
export function CreateFromDomainModal({ siteId, open, onClose }: NamesModalProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<FromValues>();
  const sources = useQuery({
    ...routeQuery('user', domainRoutes.metaDomains, { params: { siteId }, query: { keyword: '' } }),
    enabled: open,
  });
  const create = useRouteMutation('user', domainRoutes.createDomainsFrom, {
    input: (values: FromValues) => ({
      params: { siteId },
      body: {
        domainID: values.domainID,
        names: namesOf(values.names),
        status: values.enabled ? DOMAIN_STATUS.enabled : DOMAIN_STATUS.disabled,
      },
    }),
    invalidates: changes('domains'),
    success: createdText,
    form: {
      instance: form,
      fields: (path) => (path[0] === 'status' ? 'enabled' : namesFieldOf(['domainID'])(path)),
    },
    onSuccess: onClose,
  });
  return (
    <FormModal<FromValues>
      open={open}
      title={t('byNames.fromTitle')}
      form={form}
      pending={create.isPending}
      onCancel={onClose}
      initialValues={{ names: '', enabled: true }}
      onSubmit={(values) => create.mutate(values)}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('byNames.fromHint')} />
      <Form.Item
        name="domainID"
        label={t('byNames.source')}
        rules={[{ required: true, message: t('byNames.pickSource') }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          aria-label={t('byNames.source')}
          loading={sources.isLoading}
          options={(sources.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
        />
      </Form.Item>
      <Form.Item name="names" label={t('form.names')} extra={t('form.namesHint')} rules={namesRules} required>
        <Input.TextArea rows={4} spellCheck={false} />
      </Form.Item>
      <Form.Item name="enabled" label={t('byNames.enableNew')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}

/** Delete by names (`DELETE domainsByNames`): all or none; a name not in the site answers 101009. */
export function DeleteByNamesModal({ siteId, open, onClose }: NamesModalProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<{ names: string }>();
  const remove = useRouteMutation('user', domainRoutes.deleteDomainsByNames, {
    input: (values: { names: string }) => ({ params: { siteId }, body: { names: namesOf(values.names) } }),
    invalidates: changes('domains'),
    success: () => toastText('deleteSuccess'),
    form: { instance: form, fields: namesFieldOf([]) },
    onSuccess: onClose,
  });
  return (
    <FormModal<{ names: string }>
      open={open}
      title={t('byNames.deleteTitle')}
      form={form}
      pending={remove.isPending}
      onCancel={onClose}
      initialValues={{ names: '' }}
      onSubmit={(values) => remove.mutate(values)}
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('byNames.deleteHint')} />
      <Form.Item name="names" label={t('form.names')} extra={t('form.namesHint')} rules={existingNamesRules} required>
        <Input.TextArea rows={4} autoFocus spellCheck={false} />
      </Form.Item>
    </FormModal>
  );
}
