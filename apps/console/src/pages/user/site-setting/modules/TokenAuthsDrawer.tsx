import { type TokenAuth, tokenAuthRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import type { ListColumns } from '../../../../components/FitTable';
import { MODULE_ITEMS_PAGE_SIZE, ModuleItemsDrawer } from './ModuleItemsDrawer';
import { type ListedModule, ruleInvalidates } from './module-types';
import { TokenAuthFormModal } from './TokenAuthFormModal';

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
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TokenAuth | 'new' | null>(null);
  const params = { siteId, moduleId: module?.id ?? 0 };
  const auths = useQuery({
    ...routeQuery('user', tokenAuthRoutes.listRules, { params, query: { page, pageSize: MODULE_ITEMS_PAGE_SIZE } }),
    enabled: module !== null,
  });
  const remove = useRouteMutation('user', tokenAuthRoutes.deleteRules, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates: ruleInvalidates('tokenAuth'),
    success: () => toastText('removeSuccess'),
  });

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
      open={module !== null}
      size={900}
      title={t('token.title', { name: module?.name ?? '' })}
      help={<Typography.Paragraph type="secondary">{t('token.help')}</Typography.Paragraph>}
      addLabel={t('token.add')}
      onAdd={() => setEditing('new')}
      columns={columns}
      onEdit={setEditing}
      deleteConfirm={t('token.deleteConfirm')}
      remove={remove}
      items={auths}
      page={page}
      onPage={setPage}
      emptyText={t('token.empty')}
      onClose={onClose}
    >
      {module && (
        <TokenAuthFormModal siteId={siteId} moduleId={module.id} auth={editing} onClose={() => setEditing(null)} />
      )}
    </ModuleItemsDrawer>
  );
}
