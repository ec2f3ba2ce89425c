import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CORS_METHODS, corsSettingsSchema, proxyRewriteSettingsSchema, type SiteModuleType } from '@rampart/contract';
import { Button, Checkbox, Form, Input, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { entryListRules } from '../../../../forms/line-rules';
import { NumberInput } from '../../../../forms/NumberInput';
import { numberFieldRules } from '../../../../forms/zod-rules';
import { i18n } from '../../../../i18n/i18n';
import { WAF_DEFAULTS, type WafExclusionValues, WafFields, wafExclusionBody } from './WafFields';

/** Every bad entry of a tags field named with its place, checked with the contract's schema of the whole list. */
function tagsRules(list: z.ZodType) {
  return entryListRules(list, (position, value, message) => i18n.t('modules:entryError', { position, value, message }));
}

const TAGS_RULES = {
  origins: tagsRules(corsSettingsSchema.shape.origins),
  allowHeaders: tagsRules(corsSettingsSchema.shape.allowHeaders),
  exposeHeaders: tagsRules(corsSettingsSchema.shape.exposeHeaders),
  removeHeaders: tagsRules(proxyRewriteSettingsSchema.shape.removeHeaders),
};

/** Free-text list fields (origins, header names): typed entries become tags. */
function TagsInput({
  label,
  name,
  placeholder,
}: {
  label: string;
  name: keyof typeof TAGS_RULES;
  placeholder?: string;
}) {
  return (
    <Form.Item name={name} label={label} rules={TAGS_RULES[name]}>
      <Select mode="tags" open={false} suffixIcon={null} placeholder={placeholder} aria-label={label} />
    </Form.Item>
  );
}

/** Rows of name and value (and direction for custom headers), added and removed in place. */
function HeaderRows({ name, directions, addLabel }: { name: string; directions: boolean; addLabel: string }) {
  const { t } = useTranslation('modules');
  return (
    <Form.List name={name}>
      {(rows, { add, remove }) => (
        <>
          {rows.map((row, index) => (
            <Space key={row.key} align="start" wrap>
              {directions && (
                <Form.Item name={[row.name, 'type']}>
                  <Select
                    style={{ width: 190 }}
                    aria-label={`${t('headers.direction')} ${index + 1}`}
                    options={[
                      { value: 'request', label: t('headers.request') },
                      { value: 'response', label: t('headers.response') },
                    ]}
                  />
                </Form.Item>
              )}
              <Form.Item name={[row.name, 'name']}>
                <Input placeholder={t('headers.name')} aria-label={`${t('headers.name')} ${index + 1}`} />
              </Form.Item>
              <Form.Item name={[row.name, 'value']}>
                <Input placeholder={t('headers.value')} aria-label={`${t('headers.value')} ${index + 1}`} />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('headers.remove', { row: index + 1 })}
                onClick={() => remove(row.name)}
              />
            </Space>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add(directions ? { type: 'response', name: '', value: '' } : { name: '', value: '' })}
          >
            {addLabel}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** The settings fields of one module type (the name field is the form's own). */
export function ModuleFields({ type }: { type: SiteModuleType }) {
  const { t } = useTranslation('modules');
  switch (type) {
    case 'customHeader':
      return (
        <Form.Item label={t('headers.title')}>
          <HeaderRows name="headers" directions addLabel={t('headers.add')} />
        </Form.Item>
      );
    case 'cors':
      return (
        <>
          <TagsInput name="origins" label={t('cors.origins')} placeholder={t('cors.originsHint')} />
          <Form.Item name="methods" label={t('cors.methods')}>
            <Checkbox.Group options={CORS_METHODS.map((m) => ({ value: m, label: m }))} />
          </Form.Item>
          <TagsInput name="allowHeaders" label={t('cors.allowHeaders')} />
          <TagsInput name="exposeHeaders" label={t('cors.exposeHeaders')} />
          <Form.Item name="credentials" label={t('cors.credentials')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="maxAge" label={t('cors.maxAge')} rules={numberFieldRules(corsSettingsSchema, 'maxAge')}>
            <NumberInput />
          </Form.Item>
        </>
      );
    case 'proxyRewrite':
      return (
        <>
          <Form.Item name="hostHeader" label={t('rewrite.hostHeader')}>
            <Input />
          </Form.Item>
          <Form.Item label={t('rewrite.setHeaders')}>
            <HeaderRows name="setHeaders" directions={false} addLabel={t('rewrite.addHeader')} />
          </Form.Item>
          <TagsInput name="removeHeaders" label={t('rewrite.removeHeaders')} />
        </>
      );
    case 'waf':
      return <WafFields />;
    default:
      return null;
  }
}

/** The values a new module of each type starts from (the contract's defaults). */
export const MODULE_DEFAULTS: Record<SiteModuleType, Record<string, unknown>> = {
  customHeader: { headers: [] },
  urlRedirect: {},
  cors: {
    origins: [],
    methods: ['GET', 'HEAD', 'POST'],
    allowHeaders: [],
    exposeHeaders: [],
    credentials: false,
    maxAge: 600,
  },
  proxyRewrite: { hostHeader: '', setHeaders: [], removeHeaders: [] },
  luaAcl: {},
  tokenAuth: {},
  waf: WAF_DEFAULTS,
};

/** The settings of a listed module, as the form edits them. */
export function moduleValues(type: SiteModuleType, module: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(MODULE_DEFAULTS[type]).map((key) => [key, module[key]]));
}

/** The body a module form's values become: a WAF module's exclusions as the server takes them. */
export function moduleBody<V extends Record<string, unknown>>(type: SiteModuleType, values: V): V {
  if (type !== 'waf') return values;
  const exclusions = (values.exclusions ?? []) as WafExclusionValues[];
  return { ...values, exclusions: exclusions.map(wafExclusionBody) };
}
