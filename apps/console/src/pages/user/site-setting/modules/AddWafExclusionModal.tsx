import {
  type LogRecord,
  PAGE_SIZE_MAX,
  WAF_PARTS,
  type WafExclusionPart,
  type WafGroup,
  type WafModule,
  wafExclusionKey,
  wafRoutes,
  wafRuleGroup,
} from '@rampart/contract';
import { Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallsMutation } from '../../../../app/route-query';
import { toast, toastText } from '../../../../app/toast';
import { FormModal } from '../../../../components/FormModal';
import { pathOfUrl } from '../../../../features/waf/WafEvents';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { callAuthed } from '../../../../session';
import { moduleInvalidates } from './module-types';
import { WafExclusionFields, type WafExclusionValues, wafExclusionBody } from './WafFields';

/** What a WAF event says about a detection: the exclusion the modal starts from. */
export interface WafExclusionPrefill {
  ruleId: number | null;
  group: WafGroup | null;
  part: WafExclusionPart;
  name: string;
  path: string;
}

/**
 * The exclusion a WAF event suggests: its rule's group (another rule of the same family often
 * fires on the same value once the first is excluded; the dialog can narrow it to the one rule), on
 * the part and under the name it was found, on the path it was requested on (a part the event does
 * not name: every part).
 */
export function prefillFromEvent(record: LogRecord): WafExclusionPrefill {
  const part = (WAF_PARTS as readonly string[]).includes(record.wafPart) ? (record.wafPart as WafExclusionPart) : 'any';
  const group = wafRuleGroup(record.fwRule);
  return {
    ruleId: group === null && record.fwRule > 0 ? record.fwRule : null,
    group,
    part,
    name: part === 'any' || part === 'path' ? '' : record.wafName,
    path: pathOfUrl(record.url),
  };
}

interface AddWafExclusionModalProps {
  siteId: number;
  /** The WAF module of the domain the event came from. */
  moduleId: number;
  /** Opens the modal with these values; null closes it. */
  prefill: WafExclusionPrefill | null;
  /** After the exclusion was added (true) or the modal was closed without adding one (false). */
  onDone: (added: boolean) => void;
}

type Outcome = 'added' | 'present' | 'missing';

/** A server path of the module's PUT (`exclusions.<n>.<field>`) → this form's field. */
const fieldOf: FieldNameOf = (path) =>
  path[0] === 'exclusions' && path.length === 3 ? (path[2] as string) : path[0] === 'exclusions' ? 'ruleId' : undefined;

/**
 * Appends one exclusion to a WAF module (`PUT .../module/waf` with the module's settings and its
 * exclusions plus this one), e.g. from a WAF event that was a false positive. The module is read
 * afresh just before, so the exclusions of another tab are kept. An exclusion the module already
 * has is not added twice.
 */
export function AddWafExclusionModal({ siteId, moduleId, prefill, onDone }: AddWafExclusionModalProps) {
  const { t } = useTranslation('modules');
  const [form] = Form.useForm<WafExclusionValues>();
  const add = useCallsMutation(
    'user',
    async (values: WafExclusionValues): Promise<Outcome> => {
      const page = await callAuthed('user', wafRoutes.list, {
        params: { siteId },
        query: { page: 1, pageSize: PAGE_SIZE_MAX },
      });
      const module = (page.data as WafModule[]).find((m) => m.id === moduleId);
      if (!module) return 'missing';
      const exclusion = wafExclusionBody(values);
      if (module.exclusions.some((e) => wafExclusionKey(e) === wafExclusionKey(exclusion))) return 'present';
      const { id, name, mode, groups, sensitivity, failMode, exclusions } = module;
      await callAuthed('user', wafRoutes.update, {
        params: { siteId },
        body: { id, name, mode, groups, sensitivity, failMode, exclusions: [...exclusions, exclusion] },
      });
      return 'added';
    },
    {
      invalidates: moduleInvalidates('waf'),
      form: { instance: form, fields: fieldOf },
      onSuccess: (outcome) => {
        if (outcome === 'added') toast.success(toastText('setSuccess'));
        else if (outcome === 'present') toast.info(t('waf.exclusion.present'));
        else toast.error(t('waf.exclusion.missing'));
        onDone(outcome !== 'missing');
      },
    },
  );
  // A rule id names its group too: the customer may widen the exclusion to the whole group.
  const initial: WafExclusionValues | undefined = prefill
    ? {
        ruleId: prefill.ruleId,
        group: prefill.ruleId === null ? prefill.group : null,
        part: prefill.part,
        name: prefill.name,
        path: prefill.path,
      }
    : undefined;
  const ruleGroup = prefill?.ruleId != null ? wafRuleGroup(prefill.ruleId) : null;

  return (
    <FormModal<WafExclusionValues>
      open={prefill !== null}
      title={t('waf.exclusion.addTitle')}
      form={form}
      width={560}
      pending={add.isPending}
      onCancel={() => onDone(false)}
      initialValues={initial}
      onSubmit={(values) => add.mutate(values)}
    >
      <Typography.Paragraph type="secondary">
        {t('waf.exclusion.addHelp')}
        {ruleGroup ? ` ${t('waf.exclusion.widenHint')}` : ''}
      </Typography.Paragraph>
      <WafExclusionFields name={[]} label={(field) => t(`waf.exclusion.${field}`)} />
    </FormModal>
  );
}
