import { API_TOKEN_TTL_MAX_S, API_TOKEN_TTL_MIN_S, type ApiToken, apiTokenRoutes, type Tier } from '@rampart/contract';
import { Alert, Button, Flex, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { createdText } from '../../../app/toast';
import { CopyButton } from '../../../components/CopyButton';
import { FormModal } from '../../../components/FormModal';
import { NumberInput } from '../../../forms/NumberInput';
import { schemaRules } from '../../../forms/zod-rules';
import { PermissionPicker } from '../roles/PermissionPicker';

/** A token as the create call answers it: with its secret, which no other call returns. */
export type CreatedApiToken = ApiToken & { token: string };

interface ApiTokenValues {
  name: string;
  lifetime: number;
  permissions?: string[];
}

const rules = schemaRules(apiTokenRoutes.createApiToken.request.body);
const DEFAULT_LIFETIME_S = 3600;

/** Creates an API token; an empty key list means all of the owner's keys (`permissions: null`). */
export function ApiTokenFormModal({
  tier,
  open,
  onClose,
  onCreated,
}: {
  tier: Tier;
  open: boolean;
  onClose: () => void;
  onCreated: (token: CreatedApiToken) => void;
}) {
  const { t } = useTranslation('apiTokens');
  const [form] = Form.useForm<ApiTokenValues>();
  const create = useRouteMutation(tier, apiTokenRoutes.createApiToken, {
    input: (values: ApiTokenValues) => ({
      params: { auth: tier },
      body: {
        name: values.name,
        lifetime: values.lifetime,
        permissions: values.permissions && values.permissions.length > 0 ? values.permissions : null,
      },
    }),
    invalidates: changes('apiTokens'),
    success: createdText,
    form: { instance: form, fields: ['name', 'lifetime', 'permissions'] },
    onSuccess: (reply) => onCreated(reply.data),
  });
  return (
    <FormModal<ApiTokenValues>
      open={open}
      title={t('createTitle')}
      form={form}
      width={720}
      pending={create.isPending}
      onCancel={onClose}
      initialValues={{ name: '', lifetime: DEFAULT_LIFETIME_S, permissions: [] }}
      onSubmit={(values) => create.mutate(values)}
    >
      <Form.Item name="name" label={t('name')} rules={rules('name')} required>
        <Input autoFocus autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="lifetime"
        label={t('lifetime')}
        extra={t('lifetimeHint', { min: API_TOKEN_TTL_MIN_S, max: API_TOKEN_TTL_MAX_S })}
        rules={rules('lifetime')}
        required
      >
        <NumberInput style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="permissions" label={t('limitPermissions')}>
        <PermissionPicker tier={tier} />
      </Form.Item>
    </FormModal>
  );
}

/**
 * The secret of a token just created, shown this once with a copy button and a warning: it is
 * stored hashed and no call returns it again. Closing the dialog forgets it.
 */
export function ApiTokenSecretModal({ token, onClose }: { token: CreatedApiToken | null; onClose: () => void }) {
  const { t } = useTranslation('apiTokens');
  return (
    <Modal
      open={token !== null}
      title={token ? t('secretTitle', { name: token.name }) : ''}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secretDone')}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Alert type="warning" showIcon message={t('secretWarning')} />
        <Input.TextArea aria-label={t('secretLabel')} value={token?.token ?? ''} readOnly autoSize />
        <div>
          <CopyButton text={token?.token ?? ''} />
        </div>
      </Flex>
    </Modal>
  );
}
