import { GEO_BLOCK_TYPES, userResourceRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../../app/route-query';
import { BlockTypeField, EnabledField, ListKindField, MemoField, UrlField } from './FirewallFields';
import type { FirewallFieldsProps } from './firewall-kinds';
import { regionTreeData } from './geo-regions';

/** A geo rule's fields: black or white, its regions, the URLs it covers, its mode, whether it is on, a memo. */
export function GeoRuleFields({ rules }: FirewallFieldsProps) {
  const { t } = useTranslation('firewall');
  const tree = useQuery(routeQuery('user', userResourceRoutes.listGeoIps, {}));
  const treeData = useMemo(() => regionTreeData(tree.data?.data ?? []), [tree.data]);
  return (
    <>
      <ListKindField rules={rules('isBlack')} hint={t('form.listKindHint')} />
      <Form.Item name="geoIDs" label={t('regions')} extra={t('form.regionsHint')} rules={rules('geoIDs')} required>
        <TreeSelect
          aria-label={t('regions')}
          treeData={treeData}
          multiple
          treeCheckable
          treeCheckStrictly={false}
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
          showSearch
          treeNodeFilterProp="title"
          placeholder={t('form.regionsPlaceholder')}
          loading={tree.isPending}
          maxTagCount={8}
          virtual
          listHeight={320}
        />
      </Form.Item>
      <UrlField name="urlRegex" rules={rules('urlRegex')} />
      <BlockTypeField modes={GEO_BLOCK_TYPES} rules={rules('blockType')} />
      <EnabledField />
      <MemoField rules={rules('memo')} />
    </>
  );
}
