import { nodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeKey } from '../../../app/route-query';
import { CopyButton } from '../../../components/CopyButton';
import { callAuthedRaw } from '../../../session';
import { isLoopbackUrl, type NodeInfoEntry, parseNodeInfo } from './node-info';

const KNOWN_KEYS = ['controlPlaneUrl', 'joinToken', 'installCommand', 'installScriptUrl', 'localCommand'] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];
/** The two commands, shown first, each with what it does. */
const COMMANDS = ['installCommand', 'localCommand'] as const;

function isKnownKey(name: string): name is KnownKey {
  return (KNOWN_KEYS as readonly string[]).includes(name);
}

const commandStyle = { fontFamily: 'monospace', fontSize: 12 };

/**
 * What a new node needs to join (`GET client/node-info`): the command that installs and joins a
 * fresh Debian machine, the command that tries a node on the control plane's own machine, then the
 * control plane's URL and the join token; each with a copy button. The token is a secret: it is
 * fetched when the dialog opens and not kept in the cache afterwards.
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
  const entries = info.data ?? [];
  const commands = COMMANDS.flatMap((name) => entries.filter((e) => e.name === name));
  const values = entries.filter((e) => !(COMMANDS as readonly string[]).includes(e.name));
  const label = (entry: NodeInfoEntry) => (isKnownKey(entry.name) ? t(`join.keys.${entry.name}`) : entry.key);
  // Without PUBLIC_URL the control plane names its own loopback address, which another machine cannot reach.
  const loopbackUrl = entries.find((e) => e.name === 'controlPlaneUrl' && isLoopbackUrl(e.value))?.value;

  return (
    <Modal
      open={open}
      title={t('join.title')}
      onCancel={onClose}
      width={720}
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
          {commands.map((entry) => {
            const id = `node-info-${entry.key}`;
            return (
              <Form.Item
                key={entry.key}
                label={label(entry)}
                htmlFor={id}
                extra={
                  entry.name === 'installCommand'
                    ? t('join.installHint')
                    : t('join.localHint', { command: 'npm start' })
                }
              >
                {entry.name === 'installCommand' && loopbackUrl !== undefined && (
                  <Alert
                    type="warning"
                    showIcon
                    title={t('join.loopbackWarning', { url: loopbackUrl, variable: 'PUBLIC_URL' })}
                    style={{ marginBottom: 8 }}
                  />
                )}
                <Space.Compact style={{ width: '100%' }}>
                  <Input.TextArea id={id} value={entry.value} readOnly autoSize style={commandStyle} />
                  <CopyButton text={entry.value} />
                </Space.Compact>
              </Form.Item>
            );
          })}
          {values.map((entry) => {
            const id = `node-info-${entry.key}`;
            return (
              <Form.Item key={entry.key} label={label(entry)} htmlFor={id}>
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
