import {
  errorMessage,
  LOG_PUSH_EVENTS_MAX,
  LOG_PUSH_KINDS,
  LOG_PUSH_STATUS_CLASSES,
  LOG_PUSH_TYPES,
  type LogPushEvent,
  type LogPushKind,
  type LogPushType,
  logPushDestinationInSchema,
  logPushFiltersSchema,
  SYSLOG_TRANSPORTS,
  type SyslogTransport,
} from '@rampart/contract';
import { Alert, Checkbox, Form, type FormRule, Input, Radio, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { changes } from '../../app/resource-changes';
import { useCreateOrUpdate } from '../../app/use-create-or-update';
import { FormModal } from '../../components/FormModal';
import { useSiteOptions, useZoneOptions } from '../../features/statistics/use-scope-options';
import { refuseEntries } from '../../forms/line-rules';
import { NumberInput } from '../../forms/NumberInput';
import type { FieldNameOf } from '../../forms/server-errors';
import { issueKey, validationText } from '../../forms/validation-text';
import { schemaRules } from '../../forms/zod-rules';
import { useLocale } from '../../i18n';
import { currentLocale } from '../../i18n/i18n';
import { DESTINATION_FIELDS, type PushTier, pushRoutes, SECRET_FIELDS, scopeField } from './log-push-routes';

/** The destination as the form holds it: every kind's fields, the chosen kind's sent. */
interface DestinationValues {
  kind: LogPushKind;
  url?: string;
  headerName?: string;
  headerValue?: string;
  secret?: string;
  host?: string;
  port?: number;
  transport?: SyslogTransport;
  appName?: string;
  index?: string;
  username?: string;
  password?: string;
  apiKey?: string;
  token?: string;
  sourcetype?: string;
}

interface EventValues {
  name: string;
  enabled: boolean;
  type: LogPushType;
  /** The sites (customer) or zones (operator); none: all of them. */
  scope?: number[];
  filters?: { statusClasses?: string[]; methods?: string[]; domains?: string[] };
  destination: DestinationValues;
}

/** Methods offered in the methods filter (others can be typed). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
const FILTER_FIELDS = ['statusClasses', 'methods', 'domains'] as const;
const EVERY_DESTINATION_FIELD = new Set(['kind', ...Object.values(DESTINATION_FIELDS).flat()]);
const EMPTY_FILTERS = { statusClasses: [], methods: [], domains: [] };

/** What the destination sends: the chosen kind's fields that are filled (an empty secret is kept on the server). */
function destinationOf(values: DestinationValues | undefined): Record<string, unknown> {
  const d = values ?? { kind: 'webhook' };
  const out: Record<string, unknown> = { kind: d.kind };
  for (const field of DESTINATION_FIELDS[d.kind] ?? []) {
    const value = (d as unknown as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') {
      const text = SECRET_FIELDS.has(field) ? value : value.trim();
      if (text !== '') out[field] = text;
    } else out[field] = value;
  }
  return out;
}

/** The body of the create (and, with the id, the update) from the form's values. */
function bodyOf(tier: PushTier, values: EventValues) {
  const audit = values.type === 'audit';
  const f = values.filters ?? {};
  return {
    name: values.name,
    enabled: values.enabled,
    type: values.type,
    [scopeField(tier)]: audit ? [] : (values.scope ?? []),
    filters: audit
      ? EMPTY_FILTERS
      : { statusClasses: f.statusClasses ?? [], methods: f.methods ?? [], domains: f.domains ?? [] },
    destination: destinationOf(values.destination),
  };
}

/** The form's rule of one field of a nested part, checked with the contract's schema of that part. */
function partRules(
  schema: z.ZodType,
  pick: (values: EventValues) => Record<string, unknown>,
  field: string,
): FormRule[] {
  return [
    (form) => ({
      validator: async () => {
        const value = pick(form.getFieldsValue(true) as EventValues);
        const result = await schema.safeParseAsync(value);
        if (result.success) return;
        const issue = result.error.issues.find((candidate) => candidate.path[0] === field);
        if (!issue) return;
        const { key, params } = issueKey(issue, value[field]);
        throw new Error(validationText(key, currentLocale(), params));
      },
    }),
  ];
}
const destinationRules = (field: string) =>
  partRules(logPushDestinationInSchema, (values) => destinationOf(values.destination), field);
const filterRules = (field: string) =>
  partRules(logPushFiltersSchema, (values) => ({ ...EMPTY_FILTERS, ...values.filters }), field);
/** A filter list's rule: every bad entry named through `text(position, value, message)`, checked with the contract's list. */
function filterListRules(
  field: 'methods' | 'domains',
  text: (position: number, value: string, message: string) => string,
): FormRule[] {
  const list = logPushFiltersSchema.unwrap().shape[field];
  return [
    { validator: (_rule, value: unknown) => refuseEntries(list, Array.isArray(value) ? value.map(String) : [], text) },
  ];
}

/** Where a server error's path goes in the form (a list's entry on the list, the scope's ids on the picker). */
const fieldOf: FieldNameOf = (path) => {
  const [head, sub] = path;
  if (head === 'destination')
    return sub && EVERY_DESTINATION_FIELD.has(sub) ? ['destination', sub] : ['destination', 'kind'];
  if (head === 'filters')
    return sub && (FILTER_FIELDS as readonly string[]).includes(sub) ? ['filters', sub] : undefined;
  if (head === 'siteIDs' || head === 'zoneIDs') return 'scope';
  if (head === 'name' || head === 'type' || head === 'enabled') return head;
  return undefined;
};

/** The form's values of an event being edited: its settings, secrets empty (kept unless typed). */
function initialOf(tier: PushTier, existing: LogPushEvent | null): Partial<EventValues> {
  if (!existing) {
    return {
      enabled: true,
      type: 'access',
      scope: [],
      filters: EMPTY_FILTERS,
      destination: { kind: 'webhook', transport: 'tls', port: 6514, appName: 'rampart' },
    };
  }
  const { hasSecret: _secret, ...shown } = existing.destination;
  const destination = Object.fromEntries(Object.entries(shown).filter(([, value]) => value !== null));
  return {
    name: existing.name,
    enabled: existing.enabled,
    type: existing.type,
    scope: tier === 'user' ? existing.siteIDs : existing.zoneIDs,
    filters: existing.filters,
    destination: { transport: 'tls', port: 6514, appName: 'rampart', ...destination } as DestinationValues,
  };
}

/**
 * Creates a push event (`event` is 'new') or edits one; closed when `event` is null. The fields of
 * the destination follow its kind; secrets are password fields, left empty on edit to keep the
 * stored ones. The audit log takes no scope and no filters.
 */
export function LogPushEventModal({
  tier,
  event,
  onClose,
}: {
  tier: PushTier;
  event: LogPushEvent | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('logPush');
  const [locale] = useLocale();
  const [form] = Form.useForm<EventValues>();
  const routes = pushRoutes(tier);
  const existing = event === 'new' ? null : event;
  const save = useCreateOrUpdate(tier, {
    create: routes.create,
    update: routes.update,
    createInput: (values: EventValues) => ({ body: bodyOf(tier, values) as never }),
    updateInput: (values) => ({ body: { ...bodyOf(tier, values), id: values.id } as never }),
    invalidates: changes('logPushEvents'),
    form: { instance: form, fields: fieldOf },
    describe: {
      limitText: (max) => t('limit', { message: errorMessage(101029, locale), max: max ?? LOG_PUSH_EVENTS_MAX }),
    },
    onSuccess: onClose,
  });
  // The opening values until the watches have read the form (see forms/use-field-value.ts).
  const opening = initialOf(tier, existing);
  const type = Form.useWatch('type', form) ?? opening.type;
  const kind: LogPushKind = Form.useWatch(['destination', 'kind'], form) ?? opening.destination?.kind ?? 'webhook';
  const sites = useSiteOptions('user', undefined);
  const zones = useZoneOptions(tier);
  const scope = tier === 'user' ? sites : zones;
  // A secret of this kind is stored: an empty field keeps it.
  const stored = existing !== null && existing.destination.kind === kind && existing.destination.hasSecret;
  const secret = (field: string, label: string, required = false) => (
    <Form.Item
      key={field}
      name={['destination', field]}
      label={label}
      rules={[
        ...destinationRules(field),
        ...(required && !stored ? [{ required: true, message: validationText('required', locale) }] : []),
      ]}
      required={required && !stored}
      extra={stored ? t('secretKept') : undefined}
    >
      <Input.Password autoComplete="new-password" visibilityToggle={false} />
    </Form.Item>
  );
  const text = (field: string, label: string, required = false, extra?: string) => (
    <Form.Item
      key={field}
      name={['destination', field]}
      label={label}
      rules={destinationRules(field)}
      required={required}
      extra={extra}
    >
      <Input />
    </Form.Item>
  );

  return (
    <FormModal<EventValues>
      open={event !== null}
      title={existing ? t('edit') : t('create')}
      form={form}
      pending={save.pending}
      onCancel={onClose}
      width={640}
      initialValues={opening}
      onSubmit={(values) => save.submit(values, existing)}
    >
      {existing?.state === 'dead' && (
        <Alert type="warning" showIcon title={t('deadHint')} style={{ marginBottom: 16 }} />
      )}
      <Form.Item name="name" label={t('fields.name')} rules={schemaRules(routes.create.request.body)('name')} required>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="enabled" label={t('fields.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="type" label={t('fields.type')} required>
        <Radio.Group options={LOG_PUSH_TYPES.map((value) => ({ value, label: t(`types.${value}`) }))} />
      </Form.Item>
      {type === 'audit' ? (
        <Typography.Paragraph type="secondary">{t('auditHint')}</Typography.Paragraph>
      ) : (
        <>
          <Form.Item
            name="scope"
            label={tier === 'user' ? t('fields.sites') : t('fields.zones')}
            extra={t('scopeHint')}
          >
            <Select
              mode="multiple"
              allowClear
              placeholder={tier === 'user' ? t('allSites') : t('allZones')}
              options={scope.options}
              loading={scope.loading}
              optionFilterProp="label"
            />
          </Form.Item>
          <Form.Item
            name={['filters', 'statusClasses']}
            label={t('fields.statusClasses')}
            rules={filterRules('statusClasses')}
          >
            <Checkbox.Group options={LOG_PUSH_STATUS_CLASSES.map((value) => ({ value, label: value }))} />
          </Form.Item>
          <Form.Item
            name={['filters', 'methods']}
            label={t('fields.methods')}
            rules={filterListRules('methods', (position, value, message) =>
              t('methodError', { position, value, message }),
            )}
            normalize={(value: string[] | undefined) => (value ?? []).map((m) => m.trim().toUpperCase())}
          >
            <Select
              mode="tags"
              allowClear
              placeholder={t('filtersAll')}
              options={METHODS.map((m) => ({ value: m, label: m }))}
            />
          </Form.Item>
          <Form.Item
            name={['filters', 'domains']}
            label={t('fields.domains')}
            rules={filterListRules('domains', (position, value, message) =>
              t('domainError', { position, value, message }),
            )}
            extra={t('domainsHint')}
            normalize={(value: string[] | undefined) => (value ?? []).map((d) => d.trim().toLowerCase())}
          >
            <Select
              mode="tags"
              allowClear
              open={false}
              suffixIcon={null}
              tokenSeparators={[',', ' ']}
              placeholder={t('filtersAll')}
            />
          </Form.Item>
        </>
      )}
      <Form.Item name={['destination', 'kind']} label={t('fields.kind')} required extra={t(`kindHints.${kind}`)}>
        <Select options={LOG_PUSH_KINDS.map((value) => ({ value, label: t(`kinds.${value}`) }))} />
      </Form.Item>
      {kind === 'webhook' && (
        <>
          {text('url', t('fields.url'), true, t('urlHint'))}
          {secret('secret', t('fields.secret'))}
          {text('headerName', t('fields.headerName'), false, t('headerHint'))}
          {secret('headerValue', t('fields.headerValue'))}
        </>
      )}
      {kind === 'syslog' && (
        <>
          {text('host', t('fields.host'), true)}
          <Form.Item name={['destination', 'port']} label={t('fields.port')} rules={destinationRules('port')} required>
            <NumberInput style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name={['destination', 'transport']} label={t('fields.transport')} required>
            <Radio.Group options={SYSLOG_TRANSPORTS.map((value) => ({ value, label: value.toUpperCase() }))} />
          </Form.Item>
          {text('appName', t('fields.appName'))}
        </>
      )}
      {kind === 'elasticsearch' && (
        <>
          {text('url', t('fields.url'), true)}
          {text('index', t('fields.index'), true)}
          <Typography.Paragraph type="secondary">{t('esAuthHint')}</Typography.Paragraph>
          {text('username', t('fields.username'))}
          {secret('password', t('fields.password'))}
          {secret('apiKey', t('fields.apiKey'))}
        </>
      )}
      {kind === 'splunk' && (
        <>
          {text('url', t('fields.url'), true)}
          {secret('token', t('fields.token'), true)}
          {text('index', t('fields.index'))}
          {text('sourcetype', t('fields.sourcetype'))}
        </>
      )}
    </FormModal>
  );
}
