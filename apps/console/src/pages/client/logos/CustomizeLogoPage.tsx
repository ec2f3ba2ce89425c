import {
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_SLOTS,
  LOGO_IMAGE_TYPES,
  type LogoImageSlot,
  logoRoutes,
  type OperatorLogo,
} from '@rampart/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DeleteButton } from '../../../components/DeleteButton';
import { PageTitle } from '../../../components/PageTitle';
import { schemaRules } from '../../../forms/zod-rules';

const TEXT_FIELDS = ['title', 'subTitle', 'description', 'copyright', 'version'] as const;
type Texts = Record<(typeof TEXT_FIELDS)[number], string>;
const rules = schemaRules(logoRoutes.createLogo.request.body);

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** A chosen file's preview URL, released when the file changes or the page leaves. */
function usePreview(file: File | undefined): string {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : ''), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function ImageSlot(props: {
  slot: LogoImageSlot;
  current: string;
  file: File | undefined;
  cleared: boolean;
  onChoose: (file: File | undefined) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('logos');
  const preview = usePreview(props.file);
  const shown = preview || (props.cleared ? '' : props.current);
  const label = t(props.slot);
  return (
    <Card size="small" title={label} style={{ width: 240 }}>
      <Flex vertical gap={8}>
        <Flex align="center" justify="center" style={{ height: 96, background: '#f5f5f5' }}>
          {shown ? (
            <img src={shown} alt={label} style={{ maxHeight: 96, maxWidth: '100%' }} />
          ) : (
            <Typography.Text type="secondary">{t('noImage')}</Typography.Text>
          )}
        </Flex>
        <Typography.Text type="secondary">
          {t('maxSize', { size: sizeText(LOGO_IMAGE_MAX_BYTES[props.slot]) })}
        </Typography.Text>
        <input
          type="file"
          aria-label={label}
          accept={LOGO_IMAGE_TYPES.join(',')}
          onChange={(event) => props.onChoose(event.target.files?.[0])}
        />
        <Button size="small" disabled={!shown} onClick={props.onClear}>
          {t('clear')}
        </Button>
      </Flex>
    </Card>
  );
}

/**
 * `/client/userManagement/customizeLogo`: the operator's branding — texts and images with
 * previews, saved as form data (create the first time, change after), and a reset that removes the
 * logo set. It also shows the login links that carry the operator's name (`?operator=`).
 */
export function CustomizeLogoPage() {
  const { t } = useTranslation(['logos', 'shell']);
  const client = useQueryClient();
  const list = useQuery(routeQuery('client', logoRoutes.listLogos, { query: { page: 1, pageSize: 10 } }));
  const current: OperatorLogo | null = list.data?.data[0] ?? null;
  const [form] = Form.useForm<Texts>();
  const [files, setFiles] = useState<Partial<Record<LogoImageSlot, File>>>({});
  const [cleared, setCleared] = useState<LogoImageSlot[]>([]);

  useEffect(() => {
    form.setFieldsValue(Object.fromEntries(TEXT_FIELDS.map((name) => [name, current?.[name] ?? ''])) as Texts);
  }, [current, form]);

  const refreshBranding = () => client.invalidateQueries({ queryKey: ['logo'] });
  const done = () => {
    setFiles({});
    setCleared([]);
    void refreshBranding();
  };
  const save = useRouteMutation('client', current ? logoRoutes.updateLogo : logoRoutes.createLogo, {
    input: (texts: Texts) => {
      const body: Record<string, string | File> = { ...texts };
      for (const [slot, file] of Object.entries(files)) if (file) body[slot] = file;
      if (cleared.length > 0) body.reset = cleared.join(',');
      return { body };
    },
    invalidates: changes('logos'),
    success: () => t('saved'),
    onSuccess: done,
    form: { instance: form, fields: [...TEXT_FIELDS] },
  });
  const reset = useRouteMutation('client', logoRoutes.deleteLogo, {
    input: () => ({}),
    invalidates: changes('logos'),
    success: () => toastText('deleteSuccess'),
    onSuccess: done,
  });

  const origin = globalThis.location?.origin ?? '';
  return (
    <>
      <PageTitle>{t('shell:menu.customizeLogo')}</PageTitle>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {current && (
        <Typography.Paragraph>
          {t('loginLinks')}:{' '}
          <Typography.Text
            copyable
            code
          >{`${origin}/user/login?operator=${encodeURIComponent(current.operator)}`}</Typography.Text>{' '}
          <Typography.Text
            copyable
            code
          >{`${origin}/client/login?operator=${encodeURIComponent(current.operator)}`}</Typography.Text>
        </Typography.Paragraph>
      )}
      <Spin spinning={list.isPending}>
        <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)} style={{ maxWidth: 1040 }}>
          <Typography.Title level={5}>{t('texts')}</Typography.Title>
          {TEXT_FIELDS.map((name) => (
            <Form.Item key={name} name={name} label={t(name)} rules={rules(name)}>
              {name === 'description' ? <Input.TextArea rows={3} /> : <Input />}
            </Form.Item>
          ))}
          <Typography.Title level={5}>{t('images')}</Typography.Title>
          <Flex wrap gap={16} style={{ marginBottom: 24 }}>
            {LOGO_IMAGE_SLOTS.map((slot) => (
              <ImageSlot
                key={slot}
                slot={slot}
                current={current?.[slot] ?? ''}
                file={files[slot]}
                cleared={cleared.includes(slot)}
                onChoose={(file) => {
                  setFiles((all) => ({ ...all, [slot]: file }));
                  setCleared((all) => all.filter((s) => s !== slot));
                }}
                onClear={() => {
                  setFiles((all) => ({ ...all, [slot]: undefined }));
                  setCleared((all) => (all.includes(slot) ? all : [...all, slot]));
                }}
              />
            ))}
          </Flex>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('save')}
            </Button>
            <DeleteButton
              label={t('reset')}
              confirm={t('resetConfirm')}
              disabled={!current}
              pending={reset.isPending}
              onConfirm={() => reset.mutate(undefined)}
            />
          </Space>
        </Form>
      </Spin>
    </>
  );
}
