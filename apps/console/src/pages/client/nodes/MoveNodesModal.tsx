import { type InitializedNode, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { schemaRules } from '../../../forms/zod-rules';

interface MoveValues {
  zoneID: number;
}

const rules = schemaRules(zoneRoutes.moveNodesToZone.request.body);

/**
 * `POST client/node/moveToZone`: moves the chosen nodes to another zone, all or none. A node still
 * in a group is refused by the server (202003): its groups belong to the zone it leaves.
 */
export function MoveNodesModal({
  nodes,
  onClose,
  onDone,
}: {
  /** The nodes to move; null closes the dialog. */
  nodes: InitializedNode[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('nodes');
  const [form] = Form.useForm<MoveValues>();
  const zones = useQuery({ ...routeQuery('client', zoneRoutes.metaZones, {}), enabled: nodes !== null });
  const move = useRouteMutation('client', zoneRoutes.moveNodesToZone, {
    input: (values: MoveValues) => ({ body: { nodeIDs: (nodes ?? []).map((n) => n.id), zoneID: values.zoneID } }),
    invalidates: changes('nodes'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['zoneID'] },
    onSuccess: onDone,
  });
  const current = new Set((nodes ?? []).map((n) => n.zoneId));

  return (
    <FormModal<MoveValues>
      open={nodes !== null}
      title={t('move.title', { count: nodes?.length ?? 0 })}
      form={form}
      pending={move.isPending}
      onCancel={onClose}
      onSubmit={(values) => move.mutate(values)}
    >
      <p style={{ marginTop: 0 }}>{(nodes ?? []).map((node) => node.name).join(', ')}</p>
      <Form.Item name="zoneID" label={t('move.zone')} rules={rules('zoneID')} required extra={t('move.hint')}>
        <Select
          loading={zones.isLoading}
          options={zones.data?.data
            .filter((zone) => !(current.size === 1 && current.has(zone.id)))
            .map((zone) => ({ value: zone.id, label: zone.name }))}
        />
      </Form.Item>
    </FormModal>
  );
}
