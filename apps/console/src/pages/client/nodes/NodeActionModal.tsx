import { dailyTimeSchema, nodeOperationRoutes as ops, PORT_TYPES } from '@rampart/contract';
import { Form, Input, Radio, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../../app/resource-changes';
import { useCallsMutation } from '../../../app/route-query';
import { toast, toastText } from '../../../app/toast';
import { FormModal } from '../../../components/FormModal';
import { UrlsField } from '../../../features/cache/CacheTasks';
import { schemaRules, valueRules } from '../../../forms/zod-rules';
import { COMMAND_ACTIONS, type NodeAction, type NodeActionValues, runNodeAction } from './node-actions';
import { useLatestVersion } from './node-upgrade-ui';

const memoRules = schemaRules(ops.setNodeMemo.request.body, { ids: [1] });
const timeRules = valueRules(z.union([dailyTimeSchema, z.literal('')]));

/**
 * The dialog of a node action: a confirmation for the commands (reboot, reset, log rotation) and
 * the on/off switch, or the one field of a setting (memo, monitoring, port type, daily rotation).
 * Closed when `action` is null; the call is all or none over the action's nodes.
 */
export function NodeActionModal({
  action,
  onClose,
  onDone,
}: {
  action: NodeAction | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['nodeOps', 'common']);
  const latest = useLatestVersion().data?.data;
  const [form] = Form.useForm<NodeActionValues>();
  const run = useCallsMutation('client', (values: NodeActionValues) => runNodeAction(action as NodeAction, values), {
    invalidates: changes('nodes'),
    success: () => toastText('setSuccess'),
    form: { instance: form, fields: ['memo', 'monitor', 'portType', 'time', 'urls'] },
    onSuccess: () => {
      if (action && (COMMAND_ACTIONS as readonly string[]).includes(action.kind)) toast.info(t('commandQueued'));
      onDone();
    },
  });
  const kind = action?.kind;
  const count = action?.nodes.length ?? 0;
  const first = action?.nodes[0];
  const initialValues: NodeActionValues = {
    memo: count === 1 ? first?.memo : '',
    monitor: first?.monitor ?? false,
    portType: first?.portType ?? 7,
    time: count === 1 ? (first?.logRotateTime ?? '') : '',
  };

  return (
    <FormModal<NodeActionValues>
      open={action !== null}
      title={kind ? `${t(`actions.${kind}`)} (${count})` : ''}
      form={form}
      pending={run.isPending}
      onCancel={onClose}
      onSubmit={(values) => run.mutate(values)}
      initialValues={initialValues}
    >
      <p style={{ marginTop: 0 }}>{(action?.nodes ?? []).map((node) => node.name).join(', ')}</p>
      {(kind === 'reboot' ||
        kind === 'reset' ||
        kind === 'logRotate' ||
        kind === 'upgrade' ||
        kind === 'clearCache' ||
        kind === 'on' ||
        kind === 'off') && <p>{t(`confirm.${kind}`, { count, version: latest?.version ?? '' })}</p>}
      {kind === 'memo' && (
        <Form.Item name="memo" label={t('memo')} rules={memoRules('memo')}>
          <Input.TextArea rows={3} />
        </Form.Item>
      )}
      {kind === 'purgeCache' && <UrlsField />}
      {kind === 'monitor' && (
        <Form.Item name="monitor" label={t('monitorOn')} valuePropName="checked">
          <Switch aria-label={t('monitorOn')} />
        </Form.Item>
      )}
      {kind === 'portType' && (
        <Form.Item name="portType" label={t('portType')}>
          <Radio.Group options={PORT_TYPES.map((type) => ({ value: type, label: t(`common:portTypes.${type}`) }))} />
        </Form.Item>
      )}
      {kind === 'logRotateTime' && (
        <Form.Item name="time" label={t('logRotateTime')} rules={timeRules} extra={t('timeHint')}>
          <Input placeholder="HH:MM" style={{ width: 120 }} />
        </Form.Item>
      )}
    </FormModal>
  );
}

/**
 * The action dialog of a node list: `open` starts an action on rows, `dialog` is rendered once by
 * the list; the list's selection is cleared when the action is done.
 */
export function useNodeActionDialog(clearSelection: () => void) {
  const [action, setAction] = useState<NodeAction | null>(null);
  const dialog = (
    <NodeActionModal
      action={action}
      onClose={() => setAction(null)}
      onDone={() => {
        setAction(null);
        clearSelection();
      }}
    />
  );
  return { open: setAction, dialog };
}
