import { FileSearchOutlined } from '@ant-design/icons';
import {
  DOMAIN_PROOF_STATUS,
  type DomainProofStatus,
  domainProofRoutes,
  isPlaceholderCnameTarget,
  type SiteDomain,
} from '@rampart/contract';
import { Alert, Button, Descriptions, Flex, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { useRouteMutation } from '../../../../app/route-query';
import { CopyButton } from '../../../../components/CopyButton';
import { DateTime } from '../../../../components/DateTime';
import { domainServing, SERVING_TAGS } from './domain-list';

/** The tag of each proof state (contract: domain-proof.ts). */
export const PROOF_TAGS = {
  [DOMAIN_PROOF_STATUS.pending]: { key: 'pending', color: 'orange' },
  [DOMAIN_PROOF_STATUS.proved]: { key: 'proved', color: 'green' },
  [DOMAIN_PROOF_STATUS.waived]: { key: 'waived', color: 'blue' },
  [DOMAIN_PROOF_STATUS.lost]: { key: 'lost', color: 'red' },
} as const satisfies Record<DomainProofStatus, { key: string; color: string }>;

interface ProofProps {
  siteId: number;
  domain: SiteDomain;
  canWrite: boolean;
}

/**
 * The domain list's serving cell: served, waiting for proof, claimed by another or switched off
 * (domainServing), with why on hover; for a claim not proved, the record to create.
 */
export function DomainProofCell({ siteId, domain, canWrite }: ProofProps) {
  const { t } = useTranslation('domains');
  const [open, setOpen] = useState(false);
  const serving = domainServing(domain);
  return (
    <Flex gap={4} align="center">
      <Tooltip title={t(`state.explain.${serving}`)}>
        <Tag
          color={SERVING_TAGS[serving]}
          aria-label={t('state.of', { name: domain.name })}
          tabIndex={0}
          style={{ marginInlineEnd: 0 }}
        >
          {t(`state.${serving}`)}
        </Tag>
      </Tooltip>
      {domain.proofStatus !== DOMAIN_PROOF_STATUS.proved && (
        <Tooltip title={t('state.record')}>
          <Button
            size="small"
            type="link"
            icon={<FileSearchOutlined />}
            aria-label={t('state.record')}
            onClick={() => setOpen(true)}
          />
        </Tooltip>
      )}
      {open && <DomainProofPanel siteId={siteId} domain={domain} canWrite={canWrite} onClose={() => setOpen(false)} />}
    </Flex>
  );
}

/**
 * How to prove control of a domain's name: the TXT record to publish (or the CNAME), and a Verify
 * action that asks the control plane to look now; the result is shown in place.
 */
export function DomainProofPanel({ siteId, domain, canWrite, onClose }: ProofProps & { onClose: () => void }) {
  const { t } = useTranslation(['domains', 'common']);
  const [checked, setChecked] = useState<{ status: DomainProofStatus; at: string | null }>({
    status: domain.proofStatus,
    at: domain.proofCheckedAt,
  });
  const verify = useRouteMutation('user', domainProofRoutes.verifyDomains, {
    input: () => ({ params: { siteId }, body: { domainIDs: [domain.id] } }),
    invalidates: changes('domains'),
    onSuccess: (reply) => {
      const result = reply.data[0];
      if (result) setChecked({ status: result.proofStatus, at: result.proofCheckedAt });
    },
  });
  const state = PROOF_TAGS[checked.status];
  return (
    <Modal
      open
      title={t('proof.title', { name: domain.name })}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('common:actions.close')}
        </Button>,
        ...(canWrite
          ? [
              <Button key="verify" type="primary" loading={verify.isPending} onClick={() => verify.mutate()}>
                {t('proof.verify')}
              </Button>,
            ]
          : []),
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type={
            checked.status === DOMAIN_PROOF_STATUS.lost
              ? 'error'
              : checked.status === DOMAIN_PROOF_STATUS.proved
                ? 'success'
                : 'info'
          }
          message={
            <Space>
              <Tag color={state.color}>{t(`proof.statuses.${state.key}`)}</Tag>
              {t(`proof.explain.${state.key}`)}
            </Space>
          }
        />
        <Typography.Paragraph>{t('proof.txtIntro')}</Typography.Paragraph>
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('proof.recordType')}>TXT</Descriptions.Item>
          <Descriptions.Item label={t('proof.recordName')}>
            <Space wrap>
              <Typography.Text code aria-label={t('proof.recordNameOf', { name: domain.name })}>
                {domain.proofRecordName}
              </Typography.Text>
              <CopyButton text={domain.proofRecordName} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('proof.recordValue')}>
            <Space wrap>
              <Typography.Text code aria-label={t('proof.recordValueOf', { name: domain.name })}>
                {domain.proofToken}
              </Typography.Text>
              <CopyButton text={domain.proofToken} />
            </Space>
          </Descriptions.Item>
        </Descriptions>
        {/* A placeholder target cannot resolve, so it is no way to prove anything yet. */}
        {!isPlaceholderCnameTarget(domain.cname) && (
          <Typography.Paragraph type="secondary">
            {t('proof.cnameAlternative', { name: domain.name, target: domain.cname })}
          </Typography.Paragraph>
        )}
        <Typography.Text type="secondary">
          {t('proof.checkedAt')}: {checked.at ? <DateTime value={checked.at} /> : t('proof.neverChecked')}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
