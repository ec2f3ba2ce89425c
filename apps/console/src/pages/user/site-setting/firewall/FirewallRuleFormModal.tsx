import type { ToastKey } from '@rampart/contract';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../../app/resource-changes';
import { toastText } from '../../../../app/toast';
import { useCreateOrUpdate } from '../../../../app/use-create-or-update';
import { FormModal } from '../../../../components/FormModal';
import type { FirewallKind, FirewallRuleRow, RuleParams } from './firewall-kinds';
import { firewallRuleRules } from './firewall-rule-form';

interface FirewallRuleFormModalProps<B extends object, R extends FirewallRuleRow, V extends object> {
  params: RuleParams;
  kind: FirewallKind<B, R, V>;
  /** 'new' adds a rule, a rule edits it, null closes. */
  rule: R | 'new' | null;
  onClose: () => void;
}

/** Adds a rule of the kind (a list of one) or replaces one (its id in the body), with the kind's fields. */
export function FirewallRuleFormModal<B extends object, R extends FirewallRuleRow, V extends object>({
  params,
  kind,
  rule,
  onClose,
}: FirewallRuleFormModalProps<B, R, V>) {
  const { t } = useTranslation('firewall');
  const [form] = Form.useForm<V>();
  const save = useCreateOrUpdate('user', {
    create: kind.routes.add,
    update: kind.routes.update,
    createInput: (values: V) => ({ params, body: { data: [kind.body(values)] } }),
    updateInput: (values, existing) => ({ params, body: { ...kind.body(values), id: existing.id } }),
    invalidates: changes(kind.resource),
    success: kind.createToast ? { create: () => toastText(kind.createToast as ToastKey) } : undefined,
    form: { instance: form, fields: kind.fieldOf(form) },
    onSuccess: onClose,
  });
  const existing = rule === 'new' ? null : rule;
  const { Fields } = kind;

  return (
    <FormModal<V>
      open={rule !== null}
      title={existing ? t(`form.editTitle.${kind.key}`) : t(`form.addTitle.${kind.key}`)}
      form={form}
      width={640}
      pending={save.pending}
      onCancel={onClose}
      initialValues={existing ? kind.values(existing) : kind.newRule}
      onSubmit={() => save.submit(form.getFieldsValue(true) as V, existing)}
    >
      <Fields rules={firewallRuleRules(kind)} params={params} />
    </FormModal>
  );
}
