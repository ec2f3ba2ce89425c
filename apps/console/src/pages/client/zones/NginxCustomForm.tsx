import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  customDirectivesOf,
  NGINX_CUSTOM_CONTEXTS,
  NGINX_CUSTOM_MAX,
  type NginxCustomContext,
  type NginxCustomDirective,
} from '@rampart/contract';
import { Button, Form, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallsMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type NginxScope, nginxReads, resetSection, saveSection } from './nginx-section-calls';
import { SaveResetButtons } from './SaveResetButtons';

interface Row {
  context: NginxCustomContext;
  name?: string;
  /** The arguments as typed, separated by spaces. */
  args?: string;
}

const toRows = (directives: NginxCustomDirective[]): Row[] =>
  directives.map((d) => ({ context: d.context, name: d.name, args: d.args.join(' ') }));
const toBody = (rows: Row[]): NginxCustomDirective[] =>
  rows.map((r) => ({ context: r.context, name: r.name ?? '', args: (r.args ?? '').split(/\s+/).filter(Boolean) }));

/**
 * The zone's custom nginx directives: a context, a directive from the contract's allowlist for it,
 * and its arguments. The server checks every name and argument; each node checks the result with
 * `nginx -t` and keeps its running configuration (showing the error in the node list) if refused.
 */
export function NginxCustomForm({ scope, value }: { scope: NginxScope; value: NginxCustomDirective[] }) {
  const { t } = useTranslation(['zoneSettings']);
  const [form] = Form.useForm<{ directives: Row[] }>();
  const invalidates = nginxReads(scope);
  const save = useCallsMutation(
    'client',
    (values: { directives: Row[] }) => saveSection(scope, 'custom', toBody(values.directives ?? [])),
    {
      invalidates,
      success: () => toastText('setSuccess'),
      // `value.2.args.0` on the server is the arguments input of row 2.
      form: {
        instance: form,
        fields: (path) =>
          path[0] === 'value' && path[1] !== undefined && (path[2] === 'name' || path[2] === 'args')
            ? ['directives', Number(path[1]), path[2]]
            : undefined,
      },
    },
  );
  const reset = useCallsMutation('client', () => resetSection(scope, 'custom'), {
    invalidates,
    success: () => toastText('removeSuccess'),
    onSuccess: () => form.setFieldsValue({ directives: [] }),
  });

  return (
    <Form
      form={form}
      initialValues={{ directives: toRows(value) }}
      onFinish={(values) => save.mutate(values)}
      aria-label={t('nginx.sections.custom')}
    >
      <Form.List name="directives">
        {(rows, { add, remove }) => (
          <>
            {rows.map((row) => (
              <Space key={row.key} align="baseline" wrap>
                <Form.Item name={[row.name, 'context']} style={{ marginBottom: 8 }}>
                  <Select
                    aria-label={t('nginx.custom.context')}
                    style={{ width: 110 }}
                    options={NGINX_CUSTOM_CONTEXTS.map((c) => ({ value: c, label: c }))}
                    onChange={() => form.setFieldValue(['directives', row.name, 'name'], undefined)}
                  />
                </Form.Item>
                <Form.Item noStyle shouldUpdate>
                  {() => {
                    const context = form.getFieldValue(['directives', row.name, 'context']) as NginxCustomContext;
                    return (
                      <Form.Item
                        name={[row.name, 'name']}
                        style={{ marginBottom: 8 }}
                        rules={[{ required: true, message: t('nginx.custom.nameRequired') }]}
                      >
                        <Select
                          showSearch
                          aria-label={t('nginx.custom.name')}
                          placeholder={t('nginx.custom.name')}
                          style={{ width: 230 }}
                          options={customDirectivesOf(context ?? 'http').map((n) => ({ value: n, label: n }))}
                        />
                      </Form.Item>
                    );
                  }}
                </Form.Item>
                <Form.Item
                  name={[row.name, 'args']}
                  style={{ marginBottom: 8 }}
                  rules={[{ required: true, message: t('nginx.custom.argsRequired') }]}
                >
                  <Input
                    aria-label={t('nginx.custom.args')}
                    placeholder={t('nginx.custom.args')}
                    style={{ width: 180 }}
                  />
                </Form.Item>
                <Button
                  type="text"
                  icon={<MinusCircleOutlined />}
                  aria-label={t('nginx.custom.remove')}
                  onClick={() => remove(row.name)}
                />
              </Space>
            ))}
            <Form.Item>
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={rows.length >= NGINX_CUSTOM_MAX}
                onClick={() => add({ context: 'http' })}
              >
                {t('nginx.custom.add')}
              </Button>
            </Form.Item>
          </>
        )}
      </Form.List>
      <SaveResetButtons saving={save.isPending} resetting={reset.isPending} onReset={() => reset.mutate(undefined)} />
    </Form>
  );
}
