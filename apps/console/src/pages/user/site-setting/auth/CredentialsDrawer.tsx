import { PlusOutlined } from '@ant-design/icons';
import {
  type AnyRoute,
  type AuthGroup,
  type AuthKind,
  authCredentialRoutes as c,
  JWT_ALGS,
  KEY_LOCATIONS,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Drawer, Form, Input, Select, Tabs } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../../app/route-query';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FitTable, type ListColumns } from '../../../../components/FitTable';
import { FormModal } from '../../../../components/FormModal';
import { actionsColumn, RowActions } from '../../../../components/RowActions';
import { pendingFor } from '../../../../features/lists/row-pending';
import { NumberInput } from '../../../../forms/NumberInput';
import { useFieldValue } from '../../../../forms/use-field-value';
import { numberFieldRules } from '../../../../forms/zod-rules';

const PAGE_SIZE = 20;
type Row = {
  id: number;
  name?: string;
  username?: string;
  location?: string;
  param?: string;
  key?: string;
  alg?: string;
  publicKey?: string;
  issuer?: string;
  audience?: string;
  leeway?: number;
  requireExp?: boolean;
};

const ROUTES = {
  basic: { list: c.listBasicAuths, create: c.createBasicAuth, update: c.updateBasicAuth, remove: c.deleteBasicAuths },
  key: { list: c.listKeyAuths, create: c.createKeyAuth, update: c.updateKeyAuth, remove: c.deleteKeyAuths },
  jwt: { list: c.listJwtAuths, create: c.createJwtAuth, update: c.updateJwtAuth, remove: c.deleteJwtAuths },
} as const satisfies Record<AuthKind, { list: AnyRoute; create: AnyRoute; update: AnyRoute; remove: AnyRoute }>;

/**
 * The inputs of a credential of `kind`. Editing one, the password or HS256 secret is write-only:
 * left empty it stays as it is.
 */
function CredentialFields({ kind, editing }: { kind: AuthKind; editing: boolean }) {
  const { t } = useTranslation('authGroups');
  const alg = useFieldValue<string>('alg');
  if (kind === 'basic') {
    return (
      <>
        <Form.Item name="username" label={t('basic.username')} required>
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('basic.password')}
          tooltip={t('basic.passwordHint')}
          required={!editing}
          extra={editing ? t('credential.keepHint') : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </>
    );
  }
  const name = (
    <Form.Item name="name" label={t('credential.name')} required>
      <Input autoFocus />
    </Form.Item>
  );
  if (kind === 'key') {
    return (
      <>
        {name}
        <Form.Item name="location" label={t('key.location')} required>
          <Select options={KEY_LOCATIONS.map((l) => ({ value: l, label: t(`key.locations.${l}`) }))} />
        </Form.Item>
        <Form.Item name="param" label={t('key.param')} required>
          <Input placeholder="X-Api-Key" />
        </Form.Item>
        <Form.Item name="key" label={t('key.key')} tooltip={t('key.keyHint')} required>
          <Input />
        </Form.Item>
      </>
    );
  }
  return (
    <>
      {name}
      <Form.Item name="alg" label={t('jwt.alg')} required>
        <Select options={JWT_ALGS.map((a) => ({ value: a, label: a }))} />
      </Form.Item>
      {alg === 'HS256' ? (
        <Form.Item
          name="secret"
          label={t('jwt.secret')}
          tooltip={t('jwt.secretHint')}
          required={!editing}
          extra={editing ? t('credential.keepHint') : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      ) : (
        <Form.Item name="publicKey" label={t('jwt.publicKey')} required>
          <Input.TextArea rows={6} placeholder="-----BEGIN PUBLIC KEY-----" />
        </Form.Item>
      )}
      <Form.Item name="issuer" label={t('jwt.issuer')}>
        <Input />
      </Form.Item>
      <Form.Item name="audience" label={t('jwt.audience')}>
        <Input />
      </Form.Item>
      <Form.Item name="leeway" label={t('jwt.leeway')} rules={numberFieldRules(c.createJwtAuth.request.body, 'leeway')}>
        <NumberInput />
      </Form.Item>
      <Form.Item name="requireExp" valuePropName="checked">
        <Checkbox>{t('jwt.requireExp')}</Checkbox>
      </Form.Item>
    </>
  );
}

const INITIAL: Record<AuthKind, Record<string, unknown>> = {
  basic: { username: '', password: '' },
  key: { name: '', location: 'header', param: '', key: '' },
  jwt: { name: '', alg: 'HS256', secret: '', publicKey: '', issuer: '', audience: '', leeway: 0, requireExp: true },
};

/** The form's values for an existing credential: its fields, with the write-only ones empty. */
function editValues(kind: AuthKind, r: Row): Record<string, unknown> {
  if (kind === 'basic') return { username: r.username, password: '' };
  if (kind === 'key') return { name: r.name, location: r.location, param: r.param, key: r.key };
  const { name, alg, publicKey, issuer, audience, leeway, requireExp } = r;
  return { name, alg, secret: '', publicKey, issuer, audience, leeway, requireExp };
}

/** One kind's credentials of a group: paged on the server, added and edited in a dialog, deleted per row. */
function CredentialList({ siteId, groupId, kind }: { siteId: number; groupId: number; kind: AuthKind }) {
  const { t } = useTranslation('authGroups');
  const [page, setPage] = useState(1);
  /** The dialog: closed (null), adding ('new') or editing a row. */
  const [dialog, setDialog] = useState<Row | 'new' | null>(null);
  const [form] = Form.useForm<Record<string, unknown>>();
  const params = { siteId, groupId };
  const routes = ROUTES[kind];
  const list = useQuery(routeQuery('user', routes.list, { params, query: { page, pageSize: PAGE_SIZE } }));
  const invalidates = changes('authCredentials');
  const save = useCreateOrUpdate('user', {
    create: routes.create as typeof c.createKeyAuth,
    update: routes.update as typeof c.updateKeyAuth,
    createInput: (body: Record<string, unknown>) => ({ params, body: body as never }),
    updateInput: (body) => ({ params, body: body as never }),
    invalidates,
    form: { instance: form, fields: Object.keys(INITIAL[kind]) },
    onSuccess: () => setDialog(null),
  });
  const editing = dialog === 'new' ? null : dialog;
  const remove = useRouteMutation('user', routes.remove as typeof c.deleteKeyAuths, {
    input: (id: number) => ({ params, body: { ids: [id] } }),
    invalidates,
    success: () => toastText('removeSuccess'),
  });
  const described = (r: Row): ReactNode =>
    kind === 'basic' ? r.username : kind === 'key' ? `${r.name} (${r.location}: ${r.param})` : `${r.name} (${r.alg})`;
  const columns: ListColumns<Row> = [
    { title: t(`kinds.${kind}`), key: 'what', render: (_, r) => described(r) },
    actionsColumn(
      (r) => (
        <RowActions
          onEdit={() => setDialog(r)}
          deleteConfirm={t('credential.deleteConfirm')}
          deleting={pendingFor(remove, r.id)}
          onDelete={() => remove.mutate(r.id)}
        />
      ),
      '',
    ),
  ];
  return (
    <>
      <Button icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setDialog('new')}>
        {t('credential.add', { kind: t(`kinds.${kind}`) })}
      </Button>
      <FitTable<Row>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={(list.data?.data ?? []) as Row[]}
        loading={list.isLoading}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        locale={{ emptyText: t('credential.empty') }}
      />
      <FormModal<Record<string, unknown>>
        open={dialog !== null}
        title={t(editing ? 'credential.edit' : 'credential.add', { kind: t(`kinds.${kind}`) })}
        form={form}
        pending={save.pending}
        onCancel={() => setDialog(null)}
        initialValues={editing ? editValues(kind, editing) : INITIAL[kind]}
        onSubmit={(values) => save.submit(values, editing)}
      >
        <CredentialFields kind={kind} editing={editing !== null} />
      </FormModal>
    </>
  );
}

/** A group's basic, key and JWT credentials, one tab each. */
export function CredentialsDrawer(props: { siteId: number; group: AuthGroup | null; onClose: () => void }) {
  const { siteId, group, onClose } = props;
  const { t } = useTranslation('authGroups');
  const kinds: AuthKind[] = ['basic', 'key', 'jwt'];
  return (
    <Drawer
      open={group !== null}
      size={720}
      title={t('credential.title', { name: group?.name ?? '' })}
      onClose={onClose}
    >
      {group && (
        <Tabs
          items={kinds.map((kind) => ({
            key: kind,
            label: t(`kinds.${kind}`),
            children: <CredentialList siteId={siteId} groupId={group.id} kind={kind} />,
          }))}
        />
      )}
    </Drawer>
  );
}
