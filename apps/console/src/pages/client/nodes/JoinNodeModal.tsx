import { nodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeKey } from '../../../app/route-query';
import { CopyButton } from '../../../components/CopyButton';
import { callAuthedRaw } from '../../../session';
import { parseNodeInfo } from './node-info';

const KNOWN_KEYS = ['controlPlaneUrl', 'joinToken', 'installCommand'] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];

function isKnownKey(name: string): name is KnownKey {
  return (KNOWN_KEYS as readonly string[]).includes(name);
}

/**
 * What a new node needs to join (`GET client/node-info`): the control plane's URL, the join token
 * and the install command, each with a copy button. The token is a secret: it is fetched when the
 * dialog opens and not kept in the cache afterwards.
 */
export function JoinNodeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['nodes', 'common']);
  const info = useQuery({
    queryKey: routeKey('client', nodeRoutes.nodeInfo),
    queryFn: async ({ signal }) =>
      parseNodeInfo(await (await callAuthedRaw('client', nodeRoutes.nodeInfo, {}, { signal })).text()),
    enabled: open,
    gcTime: 0,
    staleTime: 0,
  });

  return (
    <Modal
      open={open}
      title={t('join.title')}
      onCancel={onClose}
      width={640}
      footer={<Button onClick={onClose}>{t('common:actions.close')}</Button>}
      destroyOnHidden
    >
      <p style={{ marginTop: 0 }}>{t('join.hint')}</p>
      {info.isLoading && <Spin />}
      {info.isError && (
        <Alert
          type="error"
          title={t('join.failed')}
          action={<Button onClick={() => info.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {info.data && (
        <Form layout="vertical">
          {info.data.map((entry) => {
            const id = `node-info-${entry.key}`;
            return (
              <Form.Item
                key={entry.key}
                label={isKnownKey(entry.name) ? t(`join.keys.${entry.name}`) : entry.key}
                htmlFor={id}
              >
                <Space.Compact style={{ width: '100%' }}>
                  <Input id={id} value={entry.value} readOnly />
                  <CopyButton text={entry.value} />
                </Space.Compact>
              </Form.Item>
            );
          })}
        </Form>
      )}
    </Modal>
  );
}
