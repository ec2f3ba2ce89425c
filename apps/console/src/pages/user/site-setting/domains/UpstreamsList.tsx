import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { UPSTREAMS_PER_DOMAIN_MAX, upstreamInputSchema } from '@rampart/contract';
import { Button, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';
import { NEW_UPSTREAM } from './domain-form';

const ipRules = valueRules(upstreamInputSchema.shape.ip);
const portRules = valueRules(upstreamInputSchema.shape.port);
const weightRules = valueRules(upstreamInputSchema.shape.weight);

/**
 * The domain form's origins (`upstreams`): rows of address (an IP or a host name), port, weight
 * and backup flag; at least one.
 */
export function UpstreamsList() {
  const { t } = useTranslation('domains');
  return (
    <Form.List name="upstreams">
      {(rows, { add, remove }) => (
        <Flex vertical gap={4}>
          {rows.map(({ key, name }, index) => (
            <Flex key={key} gap="small" align="flex-start" data-testid="upstream-row">
              <Form.Item name={[name, 'ip']} rules={ipRules} style={{ flex: 3, marginBottom: 8 }}>
                <Input placeholder={t('upstream.ip')} aria-label={t('upstream.ipOf', { row: index + 1 })} />
              </Form.Item>
              <Form.Item name={[name, 'port']} rules={portRules} style={{ flex: 1, marginBottom: 8 }}>
                <NumberInput
                  placeholder={t('upstream.port')}
                  aria-label={t('upstream.portOf', { row: index + 1 })}
                  style={{ width: '100%' }}
                />
              </Form.Item>
              <Form.Item name={[name, 'weight']} rules={weightRules} style={{ flex: 1, marginBottom: 8 }}>
                <NumberInput
                  placeholder={t('upstream.weight')}
                  aria-label={t('upstream.weightOf', { row: index + 1 })}
                  style={{ width: '100%' }}
                />
              </Form.Item>
              <Form.Item name={[name, 'backup']} valuePropName="checked" style={{ marginBottom: 8 }}>
                <Checkbox>{t('upstream.backup')}</Checkbox>
              </Form.Item>
              {/* Not shown, but kept: an origin's enabled flag goes back as it was. */}
              <Form.Item name={[name, 'status']} hidden>
                <NumberInput />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('upstream.remove', { row: index + 1 })}
                disabled={rows.length === 1}
                onClick={() => remove(name)}
              />
            </Flex>
          ))}
          <Typography.Text type="secondary">{t('upstream.hint')}</Typography.Text>
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={rows.length >= UPSTREAMS_PER_DOMAIN_MAX}
            onClick={() => add({ ...NEW_UPSTREAM })}
          >
            {t('upstream.add')}
          </Button>
        </Flex>
      )}
    </Form.List>
  );
}
