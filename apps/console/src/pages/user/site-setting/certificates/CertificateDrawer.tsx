import { certificateRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, type DescriptionsProps, Drawer, Input, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import { DateTime } from '../../../../components/DateTime';
import { ListEmpty } from '../../../../components/ListEmpty';
import { TagList } from '../../../../components/TagList';
import { CertificateStatusTag } from './CertificateStatusTag';

interface CertificateDrawerProps {
  siteId: number;
  /** The certificate to show; null closes the drawer. */
  certificateId: number | null;
  onClose: () => void;
}

/** One certificate in full (`GET .../certificate/{id}`): names, issuer, validity, fingerprint, domains, chain. */
export function CertificateDrawer({ siteId, certificateId, onClose }: CertificateDrawerProps) {
  const { t } = useTranslation('certificates');
  const detail = useQuery({
    ...routeQuery('user', certificateRoutes.getCertificate, { params: { siteId, certificateId: certificateId ?? 0 } }),
    enabled: certificateId !== null,
  });
  const cert = detail.data?.data;

  const items: DescriptionsProps['items'] = cert && [
    { key: 'name', label: t('name'), children: cert.name },
    { key: 'memo', label: t('memo'), children: cert.memo || '—' },
    { key: 'status', label: t('status'), children: <CertificateStatusTag status={cert.status} /> },
    { key: 'names', label: t('names'), children: <TagList items={cert.names} /> },
    { key: 'issuer', label: t('issuer'), children: cert.issuer },
    { key: 'notBefore', label: t('notBefore'), children: <DateTime value={cert.notBefore} /> },
    { key: 'notAfter', label: t('notAfter'), children: <DateTime value={cert.notAfter} /> },
    {
      key: 'fingerprint',
      label: t('fingerprint'),
      children: <code style={{ wordBreak: 'break-all' }}>{cert.fingerprintSha256}</code>,
    },
    { key: 'domains', label: t('domains'), children: <TagList items={cert.domains.map((domain) => domain.name)} /> },
    { key: 'updatedAt', label: t('updatedAt'), children: <DateTime value={cert.updatedAt} /> },
    {
      key: 'chain',
      label: t('chain'),
      children: (
        <Input.TextArea
          value={cert.certificate}
          readOnly
          rows={8}
          aria-label={t('chain')}
          style={{ fontFamily: 'monospace' }}
        />
      ),
    },
  ];

  return (
    <Drawer
      open={certificateId !== null}
      title={cert?.name ?? t('details')}
      size={640}
      onClose={onClose}
      destroyOnHidden
    >
      {detail.isLoading && <Spin />}
      {detail.isError && <ListEmpty text="" failed onRetry={() => detail.refetch()} />}
      {items && <Descriptions items={items} column={1} bordered size="small" />}
    </Drawer>
  );
}
