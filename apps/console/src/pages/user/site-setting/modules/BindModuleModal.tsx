import { bindModuleRoutes, type SiteModuleType } from '@rampart/contract';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { useSiteDomainOptions } from '../../../../features/domains/use-site-domain-options';
import { type ListedModule, moduleInvalidates } from './module-types';

interface BindValues {
  domainIDs: number[];
  moduleID: number;
}

/** The domain list field that shows each type's bound module id. */
const BOUND_FIELD = {
  customHeader: 'customHeaderModuleID',
  urlRedirect: 'urlRedirectModuleID',
  cors: 'corsID',
  proxyRewrite: 'proxyRewriteModuleID',
  luaAcl: 'luaAclModuleID',
  tokenAuth: 'tokenAuthModuleID',
  waf: 'wafModuleID',
} as const satisfies Record<SiteModuleType, string>;

interface BindModuleModalProps {
  siteId: number;
  type: SiteModuleType;
  open: boolean;
  /** The site's modules of the type, for the dropdown ("None" = 0 unbinds). */
  modules: ListedModule[];
  /** The module picked first (from a row), or 0. */
  initialModule: number;
  onClose: () => void;
}

/**
 * `PUT domains/module/{type}`: binds one module of the site (or "None", 0) to domains picked from
 * the site's domain list, searched on the server; each shows the module it has now.
 */
export function BindModuleModal({ siteId, type, open, modules, initialModule, onClose }: BindModuleModalProps) {
  const { t } = useTranslation('modules');
  const [form] = Form.useForm<BindValues>();
  const chosen = Form.useWatch('domainIDs', form) ?? [];
  const params = { siteId };
  const names = new Map(modules.map((m) => [m.id, m.name]));
  const domains = useSiteDomainOptions({
    siteId,
    enabled: open,
    chosen,
    label: (domain) => {
      const bound = domain[BOUND_FIELD[type]];
      return bound === 0 ? domain.name : `${domain.name} (${names.get(bound) ?? `#${bound}`})`;
    },
  });
  const bind = useRouteMutation('user', bindModuleRoutes[type], {
    input: ({ domainIDs, moduleID }: BindValues) => ({
      params,
      body: (type === 'cors' ? { domainIDs, corsID: moduleID } : { domainIDs, moduleID }) as never,
    }),
    invalidates: moduleInvalidates(type),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['domainIDs', 'moduleID', 'corsID'] },
    onSuccess: onClose,
  });

  return (
    <FormModal<BindValues>
      open={open}
      title={t('bind.title', { type: t(`types.${type}`) })}
      form={form}
      width={560}
      pending={bind.isPending}
      onCancel={onClose}
      initialValues={{ domainIDs: [], moduleID: initialModule }}
      onSubmit={(values) => bind.mutate(values)}
    >
      <Form.Item name="moduleID" label={t('bind.module')} required>
        <Select
          options={[{ value: 0, label: t('bind.none') }, ...modules.map((m) => ({ value: m.id, label: m.name }))]}
        />
      </Form.Item>
      <Form.Item name="domainIDs" label={t('domains')} required>
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: domains.onSearch }}
          loading={domains.loading}
          notFoundContent={t('bind.noDomains')}
          options={domains.options}
        />
      </Form.Item>
    </FormModal>
  );
}
