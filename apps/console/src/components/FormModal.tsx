import { Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useEffect } from 'react';

interface FormModalProps<V> {
  open: boolean;
  title: ReactNode;
  form: FormInstance<V>;
  /** True while the call runs: the confirm button spins and cannot be clicked again. */
  pending: boolean;
  onCancel: () => void;
  onSubmit: (values: V) => void;
  initialValues?: Partial<V>;
  width?: number;
  children: ReactNode;
}

/**
 * A dialog around a form: confirming submits the form (its rules run first), the form is new each
 * time the dialog opens, and closing it throws the values away. The caller closes it on success.
 */
export function FormModal<V>({
  open,
  title,
  form,
  pending,
  onCancel,
  onSubmit,
  initialValues,
  width,
  children,
}: FormModalProps<V>) {
  // Each opening starts from this opening's initialValues: a form instance keeps the values it
  // held (clearOnDestroy resets it to the *previous* initialValues, which a newly mounted form
  // would keep), so a dialog reopened for another row would show the first row's values.
  // The values are set as well as reset: reopened before the closing animation ended, the dialog
  // keeps its mounted form, whose reset goes back to the initialValues of the previous opening.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an opening applies initialValues
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onCancel}
      okButtonProps={{ htmlType: 'submit', loading: pending }}
      cancelButtonProps={{ disabled: pending }}
      destroyOnHidden
      modalRender={(dom) => (
        <Form<V>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          clearOnDestroy
          onFinish={(values) => onSubmit(values)}
        >
          {dom}
        </Form>
      )}
    >
      {children}
    </Modal>
  );
}
