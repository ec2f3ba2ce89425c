import {
  L4_BLOCK_SECONDS_MAX,
  L4_CONNECTIONS_MAX,
  L4_IP_LIST_MAX,
  L4_RATE_MAX,
  userResourceRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, type FormRule, Input, Select, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import { useLocale } from '../../../../i18n';
import { EnabledField, ListKindField, MemoField, NumberField } from './FirewallFields';
import { formatCount } from './FrequencyLimitCells';
import type { FirewallFieldsProps, RuleParams } from './firewall-kinds';
import { regionTreeData } from './geo-regions';
import { portLabel, useSitePorts } from './l4-ports';
import { l4IpsRules } from './l4-rule-form';

/** The port the rule acts on: one of the site's, by number and protocol. */
function PortField({ params, rules }: { params: RuleParams; rules: FormRule[] }) {
  const { t } = useTranslation('firewall');
  const ports = useSitePorts(params.siteId);
  const options = (ports.data?.data ?? []).map((port) => ({
    value: port.id,
    label: portLabel(port.port, port.protocol),
  }));
  return (
    <Form.Item name="portID" label={t('l4.port')} extra={t('l4.form.portHint')} rules={rules} required>
      <Select
        aria-label={t('l4.port')}
        options={options}
        loading={ports.isPending}
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('l4.form.portPlaceholder')}
        style={{ width: 240 }}
      />
    </Form.Item>
  );
}

/** An L4 whitelist or blacklist rule's fields: its port, the addresses (one a line), a memo. */
export function L4IpRuleFields({ rules, params }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  return (
    <>
      <PortField params={params} rules={rules('portID')} />
      <Form.Item
        name="ips"
        label={t('l4.addresses')}
        extra={t('l4.form.addressesHint', { max: formatCount(L4_IP_LIST_MAX, locale) })}
        rules={l4IpsRules()}
        required
      >
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} />
      </Form.Item>
      <MemoField rules={rules('memo')} />
    </>
  );
}

/** A position rule's fields: its port, allow or deny, the countries, whether it is on, a memo. */
export function L4PositionRuleFields({ rules, params }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const tree = useQuery(routeQuery('user', userResourceRoutes.listGeoIps, {}));
  const treeData = useMemo(() => regionTreeData(tree.data?.data ?? [], true), [tree.data]);
  return (
    <>
      <PortField params={params} rules={rules('portID')} />
      <ListKindField rules={rules('isBlack')} hint={t('l4.form.listKindHint')} />
      <Form.Item
        name="positions"
        label={t('l4.countries')}
        extra={t('l4.form.countriesHint')}
        rules={rules('positions')}
        required
      >
        <TreeSelect
          aria-label={t('l4.countries')}
          treeData={treeData}
          multiple
          treeCheckable
          showSearch
          treeNodeFilterProp="title"
          placeholder={t('l4.form.countriesPlaceholder')}
          loading={tree.isPending}
          maxTagCount={8}
          virtual
          listHeight={320}
        />
      </Form.Item>
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}

/** A connection limit's fields: its port, the connections at once, the rate and burst, the block, whether it is on, a memo. */
export function L4LimitConnRuleFields({ rules, params }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const [locale] = useLocale();
  const rateMax = formatCount(L4_RATE_MAX, locale);
  return (
    <>
      <PortField params={params} rules={rules('portID')} />
      <NumberField
        name="max"
        label={t('l4.max')}
        unit={t('l4.units.connections')}
        hint={t('l4.form.maxHint', { max: formatCount(L4_CONNECTIONS_MAX, locale) })}
        rules={rules('max')}
      />
      <NumberField
        name="rate"
        label={t('rate')}
        unit={t('l4.units.perSecond')}
        hint={t('l4.form.rateHint', { max: rateMax })}
        rules={rules('rate')}
        optional
      />
      <NumberField
        name="burst"
        label={t('burst')}
        unit={t('l4.units.connections')}
        hint={t('l4.form.burstHint', { max: rateMax })}
        rules={rules('burst')}
      />
      <NumberField
        name="delay"
        label={t('l4.delay')}
        unit={t('units.seconds')}
        hint={t('l4.form.delayHint', { max: formatCount(L4_BLOCK_SECONDS_MAX, locale) })}
        rules={rules('delay')}
      />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}
