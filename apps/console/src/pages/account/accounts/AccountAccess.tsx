import { auditRoutes, type ManagedAccount, PAGE_SIZE_MAX, roleRoutes, type Tier } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../../app/account-context';
import { CONSOLE_PATHS } from '../../../app/console-paths';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { FormModal } from '../../../components/FormModal';
import { pendingFor } from '../../../features/lists/row-pending';
import { validationText } from '../../../forms/validation-text';
import { currentLocale } from '../../../i18n/i18n';

/**
 * The tier a console may switch to (`{auth}/proxy`): the admin to operators, an operator to
 * customers, a customer to its own sub-users (the same console: the switched session replaces its own).
 */
const SWITCH_TARGET: Record<Tier, Tier> = { admin: 'client', client: 'user', user: 'user' };

/**
 * Switch user: mints a token pair for the account and opens its console through
 * `/{auth}/switchUser?accessToken&tokenType`, which stores them as that console's cookies; the
 * refresh token never passes through the page (the reply set it as that console's HttpOnly
 * cookie). The caller's own console keeps its session (another tier's cookies).
 */
export function useSwitchUser(tier: Tier) {
  const navigate = useNavigate();
  return useRouteMutation(tier, auditRoutes.switchUser, {
    input: (account: ManagedAccount) => ({ params: { auth: tier }, body: { id: account.id } }),
    invalidates: [],
    onSuccess: (reply) => {
      const { auth, accessToken, tokenType } = reply.data;
      const query = new URLSearchParams({ accessToken, tokenType });
      void navigate(`/${auth}/${CONSOLE_PATHS.switchUser}?${query}`);
    },
  });
}

export type SwitchUser = ReturnType<typeof useSwitchUser>;

/**
 * A row's "Role" (a sub-account of the console's own tier, roles being the user and client
 * consoles') and "Switch to" (an account of the tier below) actions, for a caller holding the keys.
 */
export function AccessActions({
  tier,
  account,
  onRole,
  onZones,
  switchUser,
}: {
  tier: Tier;
  account: ManagedAccount;
  onRole: (account: ManagedAccount) => void;
  /** An operator's own sub-account: the zones it may work on. */
  onZones: (account: ManagedAccount) => void;
  switchUser: SwitchUser;
}) {
  const { t } = useTranslation(['accounts', 'common']);
  const canWrite = useCan('accounts.write');
  const canReadRoles = useCan('roles.read');
  if (!canWrite) return null;
  const roles = tier !== 'admin' && account.auth === tier && !account.isRoot && canReadRoles;
  const switchable = SWITCH_TARGET[tier] === account.auth;
  const zones = tier === 'client' && account.auth === 'client' && !account.isRoot;
  return (
    <>
      {roles && (
        <Button size="small" onClick={() => onRole(account)}>
          {t('actionRole')}
        </Button>
      )}
      {zones && (
        <Button size="small" onClick={() => onZones(account)}>
          {t('actionZones')}
        </Button>
      )}
      {switchable && (
        <ConfirmButton
          confirm={t('switchConfirm', { account: account.account })}
          disabled={account.status !== 'normal'}
          pending={pendingFor(switchUser, account.id)}
          onConfirm={() => switchUser.mutate(account)}
        >
          {t('actionSwitch')}
        </ConfirmButton>
      )}
    </>
  );
}

interface RoleValues {
  roleId: number | 'none' | undefined;
}

/**
 * Gives one of the caller's roles to a sub-account, or takes its role away (`PUT {auth}/account/role`).
 * The roles are searched by name on the server; the choice starts from the role the account holds
 * (or "No role").
 */
export function AssignRoleModal({
  tier,
  account,
  onClose,
}: {
  tier: Tier;
  account: ManagedAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('accounts');
  const [form] = Form.useForm<RoleValues>();
  const [name, setName] = useState('');
  const roles = useQuery({
    ...routeQuery(tier, roleRoutes.listRoles, {
      params: { auth: tier },
      query: { page: 1, pageSize: PAGE_SIZE_MAX, ...(name ? { name } : {}) },
    }),
    enabled: account !== null,
  });
  const assign = useRouteMutation(tier, roleRoutes.assignRole, {
    input: ({ id, roleId }: { id: number; roleId: number | null }) => ({
      params: { auth: tier },
      body: { accountId: id, roleId },
    }),
    invalidates: changes('roles', 'accounts'),
    success: () => toastText('updateUserRoleSuccess'),
    form: { instance: form, fields: ['roleId'] },
    onSuccess: onClose,
  });
  const held = account?.role ?? null;
  const found = (roles.data?.data ?? []).map((role) => ({ value: role.id, label: role.name }));
  const options = [
    { value: 'none' as const, label: t('noRole') },
    // The held role stays choosable while a search leaves it out of the page of roles.
    ...(held && !found.some((o) => o.value === held.id) ? [{ value: held.id, label: held.name }] : []),
    ...found,
  ];
  return (
    <FormModal<RoleValues>
      open={account !== null}
      title={t('roleTitle', { account: account?.account ?? '' })}
      form={form}
      pending={assign.isPending}
      onCancel={onClose}
      initialValues={{ roleId: held ? held.id : 'none' }}
      onSubmit={(values) =>
        account && assign.mutate({ id: account.id, roleId: values.roleId === 'none' ? null : (values.roleId ?? null) })
      }
    >
      <Typography.Paragraph type="secondary">{t('roleHint')}</Typography.Paragraph>
      <Form.Item
        name="roleId"
        label={t('role')}
        rules={[{ required: true, message: validationText('required', currentLocale()) }]}
      >
        <Select
          aria-label={t('role')}
          showSearch
          filterOption={false}
          onSearch={(text) => setName(text.trim())}
          loading={roles.isFetching}
          options={options}
        />
      </Form.Item>
    </FormModal>
  );
}
