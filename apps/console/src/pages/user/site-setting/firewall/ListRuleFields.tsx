import { BLACKLIST_BLOCK_TYPES, FIREWALL_METHODS, MAX_IPS } from '@rampart/contract';
import { Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { BlockTypeField, MemoField, UrlField } from './FirewallFields';
import type { FirewallFieldsProps } from './firewall-kinds';
import { ipsRules } from './list-rule-form';

/** A whitelist or blacklist rule's fields: its IPs, the URLs and methods it covers, the blacklist's mode, a memo. */
function ListRuleFields({ rules, blockType }: FirewallFieldsProps & { blockType: boolean }) {
  const { t } = useTranslation('firewall');
  return (
    <>
      <Form.Item name="ips" label={t('ips')} extra={t('form.ipsHint', { max: MAX_IPS })} rules={ipsRules()} required>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} />
      </Form.Item>
      <UrlField name="url" rules={rules('url')} />
      <Form.Item name="methods" label={t('methods')} rules={rules('methods')} required>
        <Checkbox.Group options={FIREWALL_METHODS.map((method) => ({ value: method, label: method.toUpperCase() }))} />
      </Form.Item>
      {blockType && <BlockTypeField modes={BLACKLIST_BLOCK_TYPES} rules={rules('blockType')} />}
      <MemoField rules={rules('memo')} />
    </>
  );
}

export function WhitelistRuleFields(props: FirewallFieldsProps) {
  return <ListRuleFields {...props} blockType={false} />;
}

export function BlacklistRuleFields(props: FirewallFieldsProps) {
  return <ListRuleFields {...props} blockType />;
}
