import {
  HEADER_BLOCK_TYPES,
  HEADER_MATCHES,
  HEADER_NAME_MAX,
  REFERER_HOSTS_MAX,
  REFERER_MODES,
  refererHostsSchema,
  USER_AGENT_REGEX_MAX,
} from '@rampart/contract';
import { Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { listSchemaRules } from '../../../../forms/line-rules';
import { i18n } from '../../../../i18n/i18n';
import { BlockTypeField, EnabledField, MemoField, UrlField } from './FirewallFields';
import type { FirewallFieldsProps } from './firewall-kinds';

/** Literals of the hints, the same in every language. */
const HEADER_HINT = { example: 'X-Scanner', value: 'sqlmap|nikto', any: '.*' };
const REFERER_HINT = { exact: 'example.com', wildcard: '*.example.com', max: REFERER_HOSTS_MAX };

/** The hosts box: every bad line named under it with its number (the contract's list schema), none at all refused. */
const referersRules = listSchemaRules(refererHostsSchema, (line, value, message) =>
  i18n.t('firewall:form.lineError', { line, value, message }),
);

/** A header rule's fields: the URLs it covers, the header, how it matches, its mode, whether it is on, a memo. */
export function HeaderRuleFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  return (
    <>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      <Form.Item name="header" label={t('header')} extra={t('form.headerHint')} rules={rules('header')} required>
        <Input placeholder={HEADER_HINT.example} maxLength={HEADER_NAME_MAX} spellCheck={false} />
      </Form.Item>
      <Form.Item name="match" label={t('match')} rules={rules('match')}>
        <Radio.Group options={HEADER_MATCHES.map((value) => ({ value, label: t(`matches.${value}`) }))} />
      </Form.Item>
      <Form.Item noStyle dependencies={['match']}>
        {({ getFieldValue }) =>
          getFieldValue('match') !== 'absent' && (
            <Form.Item
              name="valueRegex"
              label={t('valueRegex')}
              extra={t('form.valueHint', HEADER_HINT)}
              rules={rules('valueRegex')}
              required
            >
              <Input placeholder={HEADER_HINT.value} maxLength={USER_AGENT_REGEX_MAX} spellCheck={false} />
            </Form.Item>
          )
        }
      </Form.Item>
      <BlockTypeField modes={HEADER_BLOCK_TYPES} rules={rules('blockType')} />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}

/** An anti-referer rule's fields: the URLs it covers, allow or deny list, the hosts, empty referers, mode, switch, memo. */
export function AntiRefererFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  return (
    <>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      <Form.Item name="mode" label={t('listMode')} rules={rules('mode')}>
        <Radio.Group options={REFERER_MODES.map((value) => ({ value, label: t(`listModes.${value}`) }))} />
      </Form.Item>
      <Form.Item
        name="referers"
        label={t('referers')}
        extra={t('form.referersHint', REFERER_HINT)}
        rules={referersRules}
        required
      >
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} spellCheck={false} />
      </Form.Item>
      <Form.Item name="allowEmpty" label={t('allowEmpty')} extra={t('form.allowEmptyHint')} valuePropName="checked">
        <Switch aria-label={t('allowEmpty')} />
      </Form.Item>
      <BlockTypeField modes={HEADER_BLOCK_TYPES} rules={rules('blockType')} />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}
