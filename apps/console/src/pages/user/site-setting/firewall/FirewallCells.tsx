import { FIREWALL_ACTIONS, FIREWALL_METHODS, type FirewallMethods, protectionModeLabel } from '@rampart/contract';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../../i18n/i18n';

/** IPs a cell names before "+N more". */
const IPS_SHOWN = 2;

/** A rule's IPs: the first few and how many more, every one of them on hover. */
export function IpsCell({ ips }: { ips: readonly string[] }) {
  return <ListCell texts={ips} shown={IPS_SHOWN} testId="firewall-ips" />;
}

/**
 * A list of a rule (its IPs, its regions): the first `shown` and how many more, every one of them
 * on hover (thousands of entries scroll inside the tooltip).
 */
export function ListCell({ texts, shown, testId }: { texts: readonly string[]; shown: number; testId: string }) {
  const { t } = useTranslation('firewall');
  const more = texts.length - shown;
  return (
    <Tooltip
      title={
        <div style={{ maxHeight: 320, overflowY: 'auto' }} data-testid={testId}>
          {texts.map((text, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is shown as it is, never reordered
            <div key={i}>{text}</div>
          ))}
        </div>
      }
    >
      <Flex gap={4} align="center">
        <Typography.Text ellipsis style={{ minWidth: 0 }}>
          {texts.slice(0, shown).join(', ')}
        </Typography.Text>
        {more > 0 && <Tag style={{ marginInlineEnd: 0 }}>{t('moreIps', { count: more })}</Tag>}
      </Flex>
    </Tooltip>
  );
}

/** A rule's methods as short tags; "All methods" when it covers every one. */
export function MethodsCell({ methods }: { methods: FirewallMethods }) {
  const { t } = useTranslation('firewall');
  const covered = FIREWALL_METHODS.filter((method) => methods[method]);
  if (covered.length === FIREWALL_METHODS.length) return <Tag color="blue">{t('allMethods')}</Tag>;
  return (
    // Wraps onto more lines rather than widening the table (the list fits 1280 px).
    <Flex wrap gap={4} style={{ maxWidth: 130 }}>
      {covered.map((method) => (
        <Tag key={method} style={{ marginInlineEnd: 0 }}>
          {method.toUpperCase()}
        </Tag>
      ))}
    </Flex>
  );
}

/** A rule's protection mode (a challenge, DENY, DROP, DROP + Blacklist) as a tag; a dash for a value the console has no name for. */
export function BlockTypeTag({ blockType }: { blockType: number }) {
  const label = protectionModeLabel(blockType, currentLocale());
  if (label === null) return '—';
  const color =
    blockType === FIREWALL_ACTIONS.deny
      ? 'red'
      : blockType === FIREWALL_ACTIONS.drop
        ? 'volcano'
        : blockType === FIREWALL_ACTIONS.dropBlacklist
          ? 'magenta'
          : 'gold';
  return <Tag color={color}>{label}</Tag>;
}
