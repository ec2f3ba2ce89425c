import { isPlaceholderCnameTarget, type SiteDomain } from '@rampart/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../../components/CopyButton';
import { CNAME_TAGS } from './domain-list';

/** A long CNAME (it holds the domain's name) ends in "…" and shows whole on hover; the copy button copies it whole. */
const CNAME_STYLE: CSSProperties = {
  display: 'inline-block',
  maxWidth: 100,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'middle',
};

/**
 * A domain's CNAME target with a copy button and the state of its last check. A placeholder target
 * (the provider has set no CNAME domain yet, so the name cannot resolve) is neither shown as a
 * name to point at nor offered for copying: a quiet note says there is none yet, with why on hover.
 * It is no warning about the domain: whether the edge serves it is the serving column's.
 */
export function CnameCell({ domain }: { domain: SiteDomain }) {
  const { t } = useTranslation('domains');
  if (isPlaceholderCnameTarget(domain.cname)) {
    return (
      <Tooltip title={t('cnamePlaceholder.hint')}>
        <Typography.Text type="secondary" aria-label={t('cnameOf', { name: domain.name })} tabIndex={0}>
          {t('cnamePlaceholder.tag')}
        </Typography.Text>
      </Tooltip>
    );
  }
  const target = (
    <Typography.Text code aria-label={t('cnameOf', { name: domain.name })} title={domain.cname} style={CNAME_STYLE}>
      {domain.cname}
    </Typography.Text>
  );
  const state = CNAME_TAGS[domain.cnameStatus];
  return (
    <Space size="small" wrap>
      {target}
      <CopyButton text={domain.cname} />
      <Tag color={state.color}>{t(`cnameStatuses.${state.key}`)}</Tag>
    </Space>
  );
}
