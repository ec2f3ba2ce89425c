import { UploadOutlined } from '@ant-design/icons';
import { GEO_DATABASE_MAX_BYTES, geoDatabaseRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Empty, Popconfirm, Space, Spin, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { PageTitle } from '../../../components/PageTitle';

const MEBIBYTE = 1024 * 1024;

/**
 * `/client/systemManagement/geoDatabase`: the operator's geo database (`client/setting/geoDatabase`),
 * a MaxMind DB file the geo rules of its customers' sites are judged with on its nodes. Shows the
 * installed one (type, build date, size, cities, hash), installs another (checked by the server)
 * or removes it.
 */
export function GeoDatabasePage() {
  const { t } = useTranslation(['geoDatabase', 'shell', 'common']);
  const canWrite = useCan('client.settings.write');
  const [file, setFile] = useState<File | null>(null);
  const current = useQuery(routeQuery('client', geoDatabaseRoutes.getGeoDatabase, {}));
  const upload = useRouteMutation('client', geoDatabaseRoutes.uploadGeoDatabase, {
    // The file part travels beside the (empty) text fields of the form's schema.
    input: (chosen: File) => ({ body: { file: chosen } as never }),
    invalidates: changes('geoDatabase'),
    success: () => t('installed'),
    onSuccess: () => setFile(null),
  });
  const remove = useRouteMutation('client', geoDatabaseRoutes.deleteGeoDatabase, {
    input: () => ({}),
    invalidates: changes('geoDatabase'),
    success: () => toastText('deleteSuccess'),
  });
  const db = current.data?.data;

  return (
    <>
      <PageTitle>{t('shell:menu.geoDatabase')}</PageTitle>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 720 }}>
        {t('intro')}
      </Typography.Paragraph>
      {current.isError && (
        <Alert
          type="error"
          title={t('failed')}
          action={<Button onClick={() => current.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {current.isLoading && <Spin />}
      {current.isSuccess && !db && (
        <Empty description={t('none')} image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ maxWidth: 720 }} />
      )}
      {db && (
        <Descriptions
          column={1}
          bordered
          style={{ maxWidth: 720, marginBottom: 16 }}
          items={[
            { key: 'databaseType', label: t('databaseType'), children: db.databaseType },
            { key: 'kind', label: t('kind'), children: t(`kinds.${db.kind}`) },
            { key: 'builtAt', label: t('builtAt'), children: <DateTime value={db.builtAt} /> },
            { key: 'size', label: t('size'), children: t('megabytes', { size: (db.size / MEBIBYTE).toFixed(1) }) },
            { key: 'cities', label: t('cities'), children: db.cities },
            { key: 'uploadedAt', label: t('uploadedAt'), children: <DateTime value={db.uploadedAt} /> },
            {
              key: 'sha256',
              label: 'SHA-256',
              children: (
                <Typography.Text code copyable>
                  {db.sha256}
                </Typography.Text>
              ),
            },
          ]}
        />
      )}
      {canWrite && current.isSuccess && (
        <Space wrap style={{ marginTop: 16 }}>
          <Upload
            accept=".mmdb"
            maxCount={1}
            showUploadList={file !== null}
            fileList={file ? [{ uid: 'geo', name: file.name, status: 'done' }] : []}
            beforeUpload={(chosen) => {
              setFile(chosen);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{t('choose', { max: GEO_DATABASE_MAX_BYTES / MEBIBYTE })}</Button>
          </Upload>
          <Button
            type="primary"
            disabled={!file}
            loading={upload.isPending}
            onClick={() => file && upload.mutate(file)}
          >
            {db ? t('replace') : t('install')}
          </Button>
          {db && (
            <Popconfirm title={t('removeConfirm')} onConfirm={() => remove.mutate(undefined)}>
              <Button danger loading={remove.isPending}>
                {t('remove')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </>
  );
}
