import { domainRoutes, PAGE_SIZE_MAX, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { entryListRules } from '../../../../forms/line-rules';
import { schemaRules } from '../../../../forms/zod-rules';
import { i18n } from '../../../../i18n/i18n';

interface BatchProps {
  siteId: number;
  /** The chosen domains; the dialog is open while this is not null. */
  ids: number[] | null;
  onClose: () => void;
  onDone?: () => void;
}

/** Every bad tag named with its place, and too many as one error (the contract's list of the call). */
const tagsRules = entryListRules(domainRoutes.setDomainsTags.request.body.shape.tags, (position, value, message) =>
  i18n.t('sites:tagError', { position, value, message }),
);

/** Replaces the tags of the chosen domains (`PUT domain/setting/tags`). */
export function DomainTagsModal({ siteId, ids, onClose, onDone }: BatchProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<{ tags: string[] }>();
  const tags = useQuery({
    ...routeQuery('user', domainRoutes.userDomainsTags, { body: { siteIDs: [siteId] } }),
    enabled: ids !== null,
  });
  const save = useRouteMutation('user', domainRoutes.setDomainsTags, {
    input: ({ tags: chosen }: { tags: string[] }) => ({
      params: { siteId },
      body: { domainIDs: ids ?? [], tags: chosen ?? [] },
    }),
    invalidates: changes('domains'),
    success: () => toastText('updateTagsSuccess'),
    form: { instance: form, fields: ['tags'] },
    onSuccess: () => {
      onClose();
      onDone?.();
    },
  });
  return (
    <FormModal<{ tags: string[] }>
      open={ids !== null}
      title={t('batch.tagsTitle', { count: ids?.length ?? 0 })}
      form={form}
      pending={save.isPending}
      onCancel={onClose}
      onSubmit={(values) => save.mutate(values)}
    >
      <Form.Item name="tags" label={t('tags')} extra={t('batch.tagsHint')} rules={tagsRules}>
        <Select
          mode="tags"
          aria-label={t('tags')}
          options={tags.data?.data.map((tag) => ({ value: tag, label: tag }))}
          tokenSeparators={[',']}
        />
      </Form.Item>
    </FormModal>
  );
}

/** Copies the chosen domains into another of the customer's sites (`POST domains/copyToSite`). */
export function CopyToSiteModal({ siteId, ids, onClose, onDone }: BatchProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<{ siteID: number }>();
  const sites = useQuery({
    ...routeQuery('user', siteRoutes.listUserSites, { query: { page: 1, pageSize: PAGE_SIZE_MAX } }),
    enabled: ids !== null,
  });
  const copy = useRouteMutation('user', domainRoutes.copyDomainsToSite, {
    input: ({ siteID }: { siteID: number }) => ({ params: { siteId }, body: { domainIDs: ids ?? [], siteID } }),
    invalidates: changes('domains'),
    success: () => toastText('copyDomainToSiteSuccess'),
    form: { instance: form, fields: ['siteID'] },
    onSuccess: () => {
      onClose();
      onDone?.();
    },
  });
  const others = (sites.data?.data ?? []).filter((site) => site.siteID !== siteId);
  return (
    <FormModal<{ siteID: number }>
      open={ids !== null}
      title={t('batch.copyTitle', { count: ids?.length ?? 0 })}
      form={form}
      pending={copy.isPending}
      onCancel={onClose}
      onSubmit={(values) => copy.mutate(values)}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('batch.copyHint')} />
      <Form.Item name="siteID" label={t('batch.targetSite')} rules={[{ required: true, message: t('batch.pickSite') }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          aria-label={t('batch.targetSite')}
          loading={sites.isLoading}
          options={others.map((site) => ({ value: site.siteID, label: site.siteName }))}
        />
      </Form.Item>
    </FormModal>
  );
}

interface IPValues {
  oldIP: string;
  newIP: string;
}
const ipRules = schemaRules(domainRoutes.modifyUpstreamIPs.request.body);

/**
 * Batch change of origin (`PUT domains/modifyUpstreamIPs`): one origin IP becomes another in the
 * chosen domains, or in every domain of the site when none is chosen.
 */
export function UpstreamIPModal({ siteId, ids, onClose }: BatchProps) {
  const { t } = useTranslation('domains');
  const [form] = Form.useForm<IPValues>();
  const change = useRouteMutation('user', domainRoutes.modifyUpstreamIPs, {
    input: (values: IPValues) => ({
      params: { siteId },
      body: { domainIDs: ids ?? [], oldIP: values.oldIP.trim(), newIP: values.newIP.trim() },
    }),
    invalidates: changes('domains'),
    success: () => toastText('updateSuccess'),
    form: { instance: form, fields: ['oldIP', 'newIP'] },
    onSuccess: onClose,
  });
  const scope = ids && ids.length > 0 ? t('batch.ipScopeSome', { count: ids.length }) : t('batch.ipScopeAll');
  return (
    <FormModal<IPValues>
      open={ids !== null}
      title={t('batch.ipTitle')}
      form={form}
      pending={change.isPending}
      onCancel={onClose}
      onSubmit={(values) => change.mutate(values)}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={scope} />
      <Form.Item name="oldIP" label={t('batch.oldIP')} rules={ipRules('oldIP')} required>
        <Input spellCheck={false} />
      </Form.Item>
      <Form.Item name="newIP" label={t('batch.newIP')} rules={ipRules('newIP')} required>
        <Input spellCheck={false} />
      </Form.Item>
    </FormModal>
  );
}
