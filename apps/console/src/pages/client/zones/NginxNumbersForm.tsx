import { NGINX_TUNING_DEFAULTS, type NginxTuning, ZONE_NGINX_SECTION_ROUTES } from '@rampart/contract';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallsMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { NumberInput } from '../../../forms/NumberInput';
import { numberFieldRules } from '../../../forms/zod-rules';
import { type NginxScope, nginxReads, resetSection, saveSection } from './nginx-section-calls';
import { SaveResetButtons } from './SaveResetButtons';

type NumberSection = 'worker' | 'http' | 'stream';
type FieldKey = { [S in NumberSection]: keyof (typeof NGINX_TUNING_DEFAULTS)[S] }[NumberSection];
type Values = Record<string, number | null | undefined>;

/**
 * One structured nginx section of a zone or of the operator as number inputs. An empty input is
 * "not set": the nodes use the default shown as its placeholder. Save replaces the section; Reset
 * empties it.
 */
export function NginxNumbersForm({
  scope,
  section,
  value,
}: {
  scope: NginxScope;
  section: NumberSection;
  value: NginxTuning[NumberSection];
}) {
  const { t } = useTranslation(['zoneSettings']);
  const [form] = Form.useForm<Values>();
  const defaults: Record<string, number | string> = NGINX_TUNING_DEFAULTS[section];
  const keys = Object.keys(defaults) as FieldKey[];
  const invalidates = nginxReads(scope);
  const save = useCallsMutation(
    'client',
    (values: Values) =>
      saveSection(
        scope,
        section,
        Object.fromEntries(
          Object.entries(values).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
        ),
      ),
    {
      invalidates,
      success: () => toastText('setSuccess'),
      // `value.keepaliveTimeoutSeconds` on the server is the input of that name.
      form: { instance: form, fields: (path) => (path[0] === 'value' && path[1] ? path[1] : undefined) },
    },
  );
  const reset = useCallsMutation('client', () => resetSection(scope, section), {
    invalidates,
    success: () => toastText('removeSuccess'),
    onSuccess: () => form.setFieldsValue(Object.fromEntries(keys.map((key) => [key, undefined]))),
  });

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={value as Values}
      onFinish={(values) => save.mutate(values)}
      aria-label={t(`nginx.sections.${section}`)}
    >
      {keys.map((key) => (
        <Form.Item
          key={key}
          name={key}
          label={t(`nginx.fields.${key}`)}
          // The zone's and the operator's section take the same value.
          rules={numberFieldRules(ZONE_NGINX_SECTION_ROUTES[section].put.request.body, `value.${key}`)}
          style={{ marginBottom: 8 }}
        >
          <NumberInput
            aria-label={t(`nginx.fields.${key}`)}
            placeholder={String(defaults[key])}
            style={{ width: 200 }}
          />
        </Form.Item>
      ))}
      <SaveResetButtons saving={save.isPending} resetting={reset.isPending} onReset={() => reset.mutate(undefined)} />
    </Form>
  );
}
