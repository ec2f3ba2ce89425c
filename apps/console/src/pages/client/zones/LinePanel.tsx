import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { LineNodes, type LineRef, LineVirtualNodes } from './LineMembers';
import { useDnsLines } from './use-dns-lines';

/** One DNS line of a group: its nodes and virtual nodes in two tabs; closed when `at` is null. */
export function LinePanel({ at, groupName, onClose }: { at: LineRef | null; groupName: string; onClose: () => void }) {
  const { t } = useTranslation('lines');
  const { nameOf } = useDnsLines();
  return (
    <Drawer
      open={at !== null}
      title={at ? t('panelTitle', { group: groupName, line: nameOf(at.line) }) : ''}
      size={680}
      onClose={onClose}
      destroyOnHidden
    >
      {at && (
        <>
          <p style={{ marginTop: 0 }}>{t('hint')}</p>
          <Tabs
            items={[
              { key: 'nodes', label: t('tabs.nodes'), children: <LineNodes at={at} /> },
              { key: 'virtualNodes', label: t('tabs.virtualNodes'), children: <LineVirtualNodes at={at} /> },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
