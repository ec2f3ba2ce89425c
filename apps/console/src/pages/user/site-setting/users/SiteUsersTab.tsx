import { type SiteUser, siteRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useCallsMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { ListEmpty } from '../../../../components/ListEmpty';
import { callAuthed } from '../../../../session';

/**
 * Which of the customer's sub-accounts may see and manage the site (`user/site/users`): one switch
 * per sub-account gives access (PATCH) or takes it back (DELETE).
 */
export function SiteUsersTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation(['sites', 'common']);
  const users = useQuery(routeQuery('user', siteRoutes.listSiteUsers, { params: { siteId } }));
  const toggle = useCallsMutation(
    'user',
    ({ user, granted }: { user: SiteUser; granted: boolean }) =>
      callAuthed('user', granted ? siteRoutes.grantSiteUsers : siteRoutes.revokeSiteUsers, {
        body: { siteIDs: [siteId], userIDs: [user.id] },
      }),
    { invalidates: changes('siteUsers'), success: () => toastText('setSuccess') },
  );

  const columns: ListColumns<SiteUser> = [
    { title: t('users.account'), dataIndex: 'account' },
    { title: t('users.name'), dataIndex: 'name' },
    { title: t('users.email'), dataIndex: 'email' },
    {
      title: t('users.access'),
      dataIndex: 'granted',
      render: (granted: boolean, user) => (
        <Switch
          checked={granted}
          aria-label={t('users.accessFor', { account: user.account })}
          loading={toggle.isPending && toggle.variables?.user.id === user.id}
          onChange={(checked) => toggle.mutate({ user, granted: checked })}
        />
      ),
    },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('users.hint')}</Typography.Paragraph>
      <FitTable<SiteUser>
        rowKey="id"
        columns={columns}
        dataSource={users.data?.data}
        loading={users.isLoading}
        pagination={false}
        locale={{
          emptyText: <ListEmpty text={t('users.empty')} failed={users.isError} onRetry={() => users.refetch()} />,
        }}
      />
    </>
  );
}
