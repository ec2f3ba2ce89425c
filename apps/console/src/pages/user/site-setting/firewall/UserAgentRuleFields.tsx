import { USER_AGENT_BLOCK_TYPES, USER_AGENT_REGEX_MAX } from '@rampart/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { BlockTypeField, EnabledField, MemoField, UrlField } from './FirewallFields';
import type { FirewallFieldsProps } from './firewall-kinds';

/** Literals of the User-Agent hint, the same in every language. */
const USER_AGENT_HINT = { example: 'curl|python-requests', header: 'User-Agent' };

/** A user-agent rule's fields: the URLs it covers, the User-Agent pattern, its mode, whether it is on, a memo. */
export function UserAgentRuleFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  return (
    <>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      <Form.Item
        name="userAgentRegex"
        label={t('userAgentRegex')}
        extra={t('form.userAgentHint', USER_AGENT_HINT)}
        rules={rules('userAgentRegex')}
        required
      >
        <Input placeholder={USER_AGENT_HINT.example} maxLength={USER_AGENT_REGEX_MAX} spellCheck={false} />
      </Form.Item>
      <BlockTypeField modes={USER_AGENT_BLOCK_TYPES} rules={rules('blockType')} />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}
