import { LOG_RANGE_MAX_DAYS, type LogPushEvent } from '@rampart/contract';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changes } from '../../app/resource-changes';
import { useRouteMutation } from '../../app/route-query';
import { FormModal } from '../../components/FormModal';
import { schemaRules } from '../../forms/zod-rules';
import { type PushTier, pushRoutes } from './log-push-routes';

interface RangeValues {
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (a datetime-local input). */
  startTime: string;
  endTime: string;
}

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input shows it. */
export function localInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as an ISO time; the text itself when it is not one (the schema refuses it). */
export function isoOf(local: string | undefined): string {
  const ms = Date.parse(local ?? '');
  return Number.isNaN(ms) ? (local ?? '') : new Date(ms).toISOString();
}

/**
 * Pushes the records of a time range again to one event (`manuallyPush`): the range by the
 * records' time, at most LOG_RANGE_MAX_DAYS, checked as the contract checks it. Closed when
 * `event` is null.
 */
export function ManualPushModal({
  tier,
  event,
  onClose,
}: {
  tier: PushTier;
  event: LogPushEvent | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('logPush');
  const [form] = Form.useForm<RangeValues>();
  const routes = pushRoutes(tier);
  const body = (values: RangeValues, id: number) => ({
    id,
    startTime: isoOf(values.startTime),
    endTime: isoOf(values.endTime),
  });
  // The form's local times become the body's ISO times before the contract's check.
  const rules = schemaRules(
    z.preprocess((values) => body(values as RangeValues, event?.id ?? 1), routes.manual.request.body),
  );
  const manual = useRouteMutation(tier, routes.manual, {
    input: (values: RangeValues) => ({ body: body(values, event?.id ?? 0) }),
    invalidates: changes('logPushLogs'),
    success: () => t('manualQueued'),
    form: { instance: form, fields: ['startTime', 'endTime'] },
    onSuccess: onClose,
  });
  const now = Date.now();
  return (
    <FormModal<RangeValues>
      open={event !== null}
      title={t('manualTitle', { name: event?.name ?? '' })}
      form={form}
      pending={manual.isPending}
      onCancel={onClose}
      initialValues={{ startTime: localInput(now - 3_600_000), endTime: localInput(now) }}
      onSubmit={(values) => manual.mutate(values)}
    >
      <Typography.Paragraph type="secondary">{t('manualHint', { days: LOG_RANGE_MAX_DAYS })}</Typography.Paragraph>
      <Form.Item name="startTime" label={t('from')} rules={rules('startTime')} required>
        <Input type="datetime-local" />
      </Form.Item>
      <Form.Item name="endTime" label={t('to')} rules={rules('endTime')} dependencies={['startTime']} required>
        <Input type="datetime-local" />
      </Form.Item>
    </FormModal>
  );
}
