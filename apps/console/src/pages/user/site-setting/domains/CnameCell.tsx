import { WarningOutlined } from '@ant-design/icons';
import { isPlaceholderCnameTarget, type SiteDomain } from '@rampart/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../../components/CopyButton';
import { CNAME_TAGS } from './domain-list';

/**
 * A domain's CNAME target with a copy button and the state of its last check. A placeholder target
 * (the provider has set no CNAME domain yet, so the name cannot resolve) is not offered for copying:
 * it says so instead, with what to do in the tooltip.
 */
export function CnameCell({ domain }: { domain: SiteDomain }) {
  const { t } = useTranslation('domains');
  const target = (
    <Typography.Text code aria-label={t('cnameOf', { name: domain.name })}>
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
