import { WarningOutlined } from '@ant-design/icons';
import { isPlaceholderCnameTarget, type SiteDomain } from '@rampart/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../../components/CopyButton';
import { CNAME_TAGS } from './domain-list';

/** A long CNAME (it holds the domain's name) ends in "…" and shows whole on hover; the copy button copies it whole. */
const CNAME_STYLE: CSSProperties = {
  display: 'inline-block',
  maxWidth: 120,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'middle',
};

/**
 * A domain's CNAME target with a copy button and the state of its last check. A placeholder target
 * (the provider has set no CNAME domain yet, so the name cannot resolve) is not offered for copying:
 * it says so instead, with what to do in the tooltip.
 */
export function CnameCell({ domain }: { domain: SiteDomain }) {
  const { t } = useTranslation('domains');
  const target = (
    <Typography.Text code aria-label={t('cnameOf', { name: domain.name })} title={domain.cname} style={CNAME_STYLE}>
      {domain.cname}
    </Typography.Text>
  );
  if (isPlaceholderCnameTarget(domain.cname)) {
    return (
      <Space size="small" wrap>
        {target}
        <Tooltip title={t('cnamePlaceholder.hint')}>
          <Tag color="warning" icon={<WarningOutlined />} tabIndex={0}>
            {t('cnamePlaceholder.tag')}
          </Tag>
        </Tooltip>
      </Space>
    );
  }
  const state = CNAME_TAGS[domain.cnameStatus];
  return (
    <Space size="small" wrap>
      {target}
      <CopyButton text={domain.cname} />
      <Tag color={state.color}>{t(`cnameStatuses.${state.key}`)}</Tag>
    </Space>
  );
}
