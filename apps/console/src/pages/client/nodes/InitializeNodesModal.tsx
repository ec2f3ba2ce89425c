import { groupRoutes, type uninitializedNodeSchema, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useCallsMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';
import { callAuthed } from '../../../session';

/** A node waiting to be initialised, as `GET client/nodes` lists it. */
export type NodeToPlace = z.infer<typeof uninitializedNodeSchema>;

interface PlaceValues {
  zoneID: number;
  groupID?: number;
}

const rules = schemaRules(zoneRoutes.initializeNodes.request.body);

/**
 * Initialises nodes: `POST client/nodes/initialize` places them in the chosen zone and, with a group
 * chosen, in that group on the default line, in one all-or-none call.
 */
export async function initializeNodes(ids: number[], { zoneID, groupID }: PlaceValues): Promise<void> {
  await callAuthed('client', zoneRoutes.initializeNodes, {
    body: groupID === undefined ? { ids, zoneID } : { ids, zoneID, groupID },
  });
}

interface InitializeNodesModalProps {
  /** The nodes to place; null closes the dialog. */
  nodes: NodeToPlace[] | null;
  onClose: () => void;
  onDone: () => void;
}

export function InitializeNodesModal({ nodes, onClose, onDone }: InitializeNodesModalProps) {
  const { t } = useTranslation('nodes');
  const [form] = Form.useForm<PlaceValues>();
  const zoneID = Form.useWatch('zoneID', form);
  const zones = useQuery({ ...routeQuery('client', zoneRoutes.metaZones, {}), enabled: nodes !== null });
  const groups = useQuery({
    // New nodes serve port type 7 (sites): only those groups can take them.
    ...routeQuery('client', groupRoutes.metaGroups, { params: { zoneID: zoneID ?? 0 }, query: { portType: 7 } }),
    enabled: nodes !== null && zoneID !== undefined,
  });
  const place = useCallsMutation('client', (values: PlaceValues) => initializeNodes(ids(nodes), values), {
    invalidates: changes('nodes'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['zoneID'] },
    onSuccess: onDone,
    refreshOnError: true,
  });

  return (
    <FormModal<PlaceValues>
      open={nodes !== null}
      title={t('initialize.title', { count: nodes?.length ?? 0 })}
      form={form}
      pending={place.isPending}
      onCancel={onClose}
      onSubmit={(values) => place.mutate(values)}
    >
      <p style={{ marginTop: 0 }}>{(nodes ?? []).map((node) => node.name).join(', ')}</p>
      <Form.Item name="zoneID" label={t('initialize.zone')} rules={rules('zoneID')} required>
        <Select
          loading={zones.isLoading}
          showSearch
          optionFilterProp="label"
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={() => form.setFieldValue('groupID', undefined)}
          notFoundContent={t('initialize.noZones')}
        />
      </Form.Item>
      <Form.Item name="groupID" label={t('initialize.group')} extra={t('initialize.groupHint')}>
        <Select
          allowClear
          disabled={zoneID === undefined}
          loading={groups.isLoading && zoneID !== undefined}
          options={groups.data?.data.map((group) => ({ value: group.id, label: group.name }))}
          notFoundContent={t('initialize.noGroups')}
        />
      </Form.Item>
    </FormModal>
  );
}

function ids(nodes: NodeToPlace[] | null): number[] {
  return (nodes ?? []).map((node) => node.id);
}
