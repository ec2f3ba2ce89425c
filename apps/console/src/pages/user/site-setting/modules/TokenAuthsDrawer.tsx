import { type TokenAuth, tokenAuthRoutes } from '@rampart/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ListColumns } from '../../../../components/FitTable';
import { ModuleItemsDrawer } from './ModuleItemsDrawer';
import type { ListedModule } from './module-types';
import { TokenAuthFormModal } from './TokenAuthFormModal';
import { useModuleItems } from './use-module-items';

/** A key as the list shows it: its first two characters, the rest hidden; the copy button copies it whole. */
export function maskedKey(key: string): string {
  return `${key.slice(0, 2)}${'•'.repeat(Math.max(key.length - 2, 4))}`;
}

interface TokenAuthsDrawerProps {
  siteId: number;
  module: ListedModule | null;
  onClose: () => void;
}

/**
 * The auths of a token-auth module, paged on the server, oldest first (the first one covering a
 * refused request decides how it is refused): add, edit, delete.
 */
export function TokenAuthsDrawer({ siteId, module, onClose }: TokenAuthsDrawerProps) {
  const { t } = useTranslation('modules');
  const { editing, closeForm, drawer } = useModuleItems<TokenAuth>(
    siteId,
    module,
    'tokenAuth',
    tokenAuthRoutes,
    onClose,
  );

  const columns: ListColumns<TokenAuth> = [
    {
      title: t('token.scope'),
      key: 'scope',
      render: (_, a) => (a.scope === 'all' ? t('token.scopes.all') : `${t(`token.scopes.${a.scope}`)}: ${a.value}`),
    },
    {
      title: t('token.key'),
      key: 'key',
      render: (_, a) => (
        <Typography.Text copyable={{ text: a.key, tooltips: [t('token.copyKey'), t('token.keyCopied')] }}>
          {maskedKey(a.key)}
        </Typography.Text>
      ),
    },
    {
      title: t('token.expire'),
      key: 'expire',
      render: (_, a) => (a.expire === 0 ? t('token.noExpiry') : t('token.seconds', { count: a.expire })),
    },
    { title: t('token.action'), key: 'action', render: (_, a) => t(`token.actions.${a.action}`) },
  ];

  return (
    <ModuleItemsDrawer<TokenAuth>
      {...drawer}
      size={900}
      title={t('token.title', { name: module?.name ?? '' })}
      help={<Typography.Paragraph type="secondary">{t('token.help')}</Typography.Paragraph>}
      addLabel={t('token.add')}
      columns={columns}
      deleteConfirm={t('token.deleteConfirm')}
      emptyText={t('token.empty')}
    >
      {module && <TokenAuthFormModal siteId={siteId} moduleId={module.id} item={editing} onClose={closeForm} />}
    </ModuleItemsDrawer>
  );
}
