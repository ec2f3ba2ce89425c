import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  WAF_EXCLUSION_NAME_MAX,
  WAF_EXCLUSION_PARTS,
  WAF_EXCLUSION_PATH_MAX,
  WAF_FAIL_MODES,
  WAF_GROUPS,
  WAF_MODES,
  WAF_SENSITIVITIES,
  type WafExclusion,
  type WafExclusionPart,
  type WafGroup,
  wafExclusionSchema,
  wafRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Flex, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { routeQuery } from '../../../../app/route-query';
import { NumberInput } from '../../../../forms/NumberInput';
import { valueRules } from '../../../../forms/zod-rules';
import { useLocale } from '../../../../i18n/use-locale';

/**
 * The WAF's rule groups (`defaultRules`), named by the server in the interface language (sent as
 * Accept-Language); the language is part of the key so that switching it fetches the names again.
 */
export function useWafGroups() {
  const [locale] = useLocale();
  const base = routeQuery('user', wafRoutes.defaultRules, {});
  const query = useQuery({ ...base, queryKey: [...base.queryKey, locale], staleTime: Number.POSITIVE_INFINITY });
  const groups = query.data?.data ?? [];
  return { groups, nameOf: (key: string) => groups.find((g) => g.key === key)?.name ?? key };
}

/** The contract's defaults for a new module (routes/site-module-waf.ts). */
export const WAF_DEFAULTS = {
  mode: 'block',
  groups: [...WAF_GROUPS],
  sensitivity: 'medium',
  failMode: 'open',
  exclusions: [],
};

/** An exclusion as a form holds it: empty fields may be undefined. */
export interface WafExclusionValues {
  ruleId?: number | null;
  group?: WafGroup | null;
  part?: WafExclusionPart;
  name?: string;
  path?: string;
}

/** A rule id, or none (the exclusion then names a group): the contract's bounds, never clamped. */
const ruleIdRules = valueRules(z.preprocess((v) => (v === '' ? null : v), wafExclusionSchema.shape.ruleId));

/** An exclusion as the server takes it (wafExclusionSchema): absent fields become null or "". */
export function wafExclusionBody(values: WafExclusionValues): WafExclusion {
  const part = values.part ?? 'any';
  return {
    ruleId: values.ruleId ?? null,
    group: values.ruleId != null ? null : (values.group ?? null),
    part,
    name: part === 'any' || part === 'path' ? '' : (values.name ?? '').trim(),
    path: (values.path ?? '').trim(),
  };
}

/** The fields of an exclusion, as its labels are named (modules:waf.exclusion.<field>). */
export type WafExclusionField = 'ruleId' | 'group' | 'part' | 'name' | 'path';

/**
 * The fields of one exclusion: a rule id or a group (one of them), the part of the request, the
 * name in that part and the path prefix. `name` is the Form.List row (or [] for a form of its own).
 */
export function WafExclusionFields({
  name,
  label,
}: {
  name: (string | number)[];
  label: (field: WafExclusionField) => string;
}) {
  const { t } = useTranslation('modules');
  const { groups } = useWafGroups();
  const at = (field: WafExclusionField) => [...name, field];
  return (
    <>
      <Form.Item
        name={at('ruleId')}
        label={label('ruleId')}
        tooltip={t('waf.exclusion.ruleIdHint')}
        rules={ruleIdRules}
      >
        <NumberInput aria-label={label('ruleId')} style={{ width: 140 }} />
      </Form.Item>
      <Form.Item name={at('group')} label={label('group')} tooltip={t('waf.exclusion.groupHint')}>
        <Select
          aria-label={label('group')}
          allowClear
          style={{ width: 220 }}
          options={groups.map((g) => ({ value: g.key, label: g.name }))}
        />
      </Form.Item>
      <Form.Item name={at('part')} label={label('part')}>
        <Select
          aria-label={label('part')}
          style={{ width: 160 }}
          options={WAF_EXCLUSION_PARTS.map((p) => ({ value: p, label: t(`waf.parts.${p}`) }))}
        />
      </Form.Item>
      <Form.Item
        noStyle
        shouldUpdate={(a, b) => JSON.stringify(a) !== JSON.stringify(b)}
        // The name is ignored on the path and everywhere: the field goes away for them.
      >
        {({ getFieldValue }) => {
          const part = getFieldValue(at('part')) as WafExclusionPart | undefined;
          return part === 'any' || part === 'path' ? null : (
            <Form.Item name={at('name')} label={label('name')} tooltip={t('waf.exclusion.nameHint')}>
              <Input aria-label={label('name')} maxLength={WAF_EXCLUSION_NAME_MAX} style={{ width: 180 }} />
            </Form.Item>
          );
        }}
      </Form.Item>
      <Form.Item name={at('path')} label={label('path')} tooltip={t('waf.exclusion.pathHint')}>
        <Input aria-label={label('path')} maxLength={WAF_EXCLUSION_PATH_MAX} placeholder="/" style={{ width: 220 }} />
      </Form.Item>
    </>
  );
}

/** The module's exclusions, added and removed in place. */
function WafExclusionRows() {
  const { t } = useTranslation('modules');
  return (
    <Form.List name="exclusions">
      {(rows, { add, remove }) => (
        <>
          {rows.map((row, index) => (
            <Flex key={row.key} gap="small" wrap align="end">
              <WafExclusionFields name={[row.name]} label={(field) => `${t(`waf.exclusion.${field}`)} ${index + 1}`} />
              <Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('waf.exclusion.remove', { row: index + 1 })}
                  onClick={() => remove(row.name)}
                />
              </Form.Item>
            </Flex>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add({ ruleId: null, group: null, part: 'any', name: '', path: '' })}
          >
            {t('waf.exclusion.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** A WAF module's settings: mode, groups with their descriptions, sensitivity, fail mode and exclusions. */
export function WafFields() {
  const { t } = useTranslation('modules');
  const { groups } = useWafGroups();
  return (
    <>
      <Form.Item name="mode" label={t('waf.mode')} tooltip={t('waf.modeHint')}>
        <Radio.Group options={WAF_MODES.map((m) => ({ value: m, label: t(`waf.modes.${m}`) }))} />
      </Form.Item>
      <Form.Item name="groups" label={t('waf.groups')}>
        <Checkbox.Group style={{ width: '100%' }}>
          <Space orientation="vertical" size={4}>
            {groups.map((g) => (
              <Checkbox key={g.key} value={g.key}>
                {g.name} <Typography.Text type="secondary">{g.description}</Typography.Text>
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      </Form.Item>
      <Form.Item name="sensitivity" label={t('waf.sensitivity')} tooltip={t('waf.sensitivityHint')}>
        <Radio.Group options={WAF_SENSITIVITIES.map((s) => ({ value: s, label: t(`waf.sensitivities.${s}`) }))} />
      </Form.Item>
      <Form.Item
        name="failMode"
        label={t('waf.failMode')}
        tooltip={t('waf.failModeHint')}
        extra={t('waf.failModeTradeoff')}
      >
        <Radio.Group options={WAF_FAIL_MODES.map((f) => ({ value: f, label: t(`waf.failModes.${f}`) }))} />
      </Form.Item>
      <Form.Item label={t('waf.exclusions')} tooltip={t('waf.exclusionsHint')}>
        <WafExclusionRows />
      </Form.Item>
    </>
  );
}
