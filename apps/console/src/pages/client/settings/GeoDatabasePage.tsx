import { UploadOutlined } from '@ant-design/icons';
import {
  type AnyRoute,
  type AsnDatabase,
  asnDatabaseRoutes,
  GEO_DATABASE_MAX_BYTES,
  type GeoDatabase,
  geoDatabaseRoutes,
  type MmdbFileRecord,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  type DescriptionsProps,
  Empty,
  Popconfirm,
  Space,
  Spin,
  Typography,
  Upload,
} from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../app/account-context';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { LoadFailed } from '../../../components/LoadFailed';
import { PageTitle } from '../../../components/PageTitle';
import { L4AttackPageSetting } from './L4AttackPageSetting';

const MEBIBYTE = 1024 * 1024;

/** One of the operator's two database slots, as its card shows it. */
interface Slot<D extends MmdbFileRecord> {
  id: 'geo' | 'asn';
  get: AnyRoute;
  upload: AnyRoute;
  remove: AnyRoute;
  /** Where the slot's own texts are in the `geoDatabase` namespace (title, intro, none …). */
  texts: 'geo' | 'asn';
  /** The rows of what only this slot records, after the database type. */
  rows: (db: D, t: TFunction<'geoDatabase'>) => NonNullable<DescriptionsProps['items']>;
}

const GEO: Slot<GeoDatabase> = {
  id: 'geo',
  get: geoDatabaseRoutes.getGeoDatabase,
  upload: geoDatabaseRoutes.uploadGeoDatabase,
  remove: geoDatabaseRoutes.deleteGeoDatabase,
  texts: 'geo',
  rows: (db, t) => [
    { key: 'kind', label: t('kind'), children: t(`kinds.${db.kind}`) },
    { key: 'cities', label: t('cities'), children: db.cities },
  ],
};

const ASN: Slot<AsnDatabase> = {
  id: 'asn',
  get: asnDatabaseRoutes.getAsnDatabase,
  upload: asnDatabaseRoutes.uploadAsnDatabase,
  remove: asnDatabaseRoutes.deleteAsnDatabase,
  texts: 'asn',
  rows: (db, t) => [{ key: 'asns', label: t('asn.asns'), children: db.asns }],
};

/**
 * `/client/systemManagement/geoDatabase`: the operator's two MaxMind DB files, one card each — the
 * geo database (`client/setting/geoDatabase`) the geo rules of its customers' sites are judged with
 * on its nodes, and the ASN database (`client/setting/asnDatabase`) the control plane names the
 * autonomous system of layer-4 sources with. Each card shows the installed file (type, build date,
 * size, what it holds, hash), installs another (checked by the server) or removes it. Below them,
 * the operator's switch that lists the layer-4 attack page (which those databases feed) in its
 * customers' menu.
 */
export function GeoDatabasePage() {
  const { t } = useTranslation('shell');
  return (
    <>
      <PageTitle>{t('menu.geoDatabase')}</PageTitle>
      <DatabaseCard slot={GEO} />
      <DatabaseCard slot={ASN} />
      <L4AttackPageSetting />
    </>
  );
}

function DatabaseCard<D extends MmdbFileRecord>({ slot }: { slot: Slot<D> }) {
  const { t } = useTranslation(['geoDatabase', 'common']);
  const text = (key: 'title' | 'intro' | 'none' | 'failed' | 'installed' | 'removeConfirm') =>
    t(`${slot.texts}.${key}` as const);
  const canWrite = useCan('client.settings.write');
  const [file, setFile] = useState<File | null>(null);
  const invalidates = changes(slot.id === 'geo' ? 'geoDatabase' : 'asnDatabase');
  const current = useQuery(routeQuery('client', slot.get, {} as never));
  const upload = useRouteMutation('client', slot.upload, {
    // The file part travels beside the (empty) text fields of the form's schema.
    input: (chosen: File) => ({ body: { file: chosen } }) as never,
    invalidates,
    success: () => text('installed'),
    onSuccess: () => setFile(null),
  });
  const remove = useRouteMutation('client', slot.remove, {
    input: () => ({}) as never,
    invalidates,
    success: () => toastText('deleteSuccess'),
  });
  const db = (current.data as { data?: D | null } | undefined)?.data;

  return (
    <Card title={text('title')} style={{ maxWidth: 720, marginBottom: 24 }} data-testid={`${slot.id}-database`}>
      <Typography.Paragraph type="secondary">{text('intro')}</Typography.Paragraph>
      {current.isError && <LoadFailed title={text('failed')} onRetry={() => current.refetch()} />}
      {current.isLoading && <Spin />}
      {current.isSuccess && !db && <Empty description={text('none')} image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      {db && (
        <Descriptions
          column={1}
          bordered
          style={{ marginBottom: 16 }}
          items={[
            { key: 'databaseType', label: t('databaseType'), children: db.databaseType },
            ...slot.rows(db, t),
            { key: 'builtAt', label: t('builtAt'), children: <DateTime value={db.builtAt} /> },
            { key: 'size', label: t('size'), children: t('megabytes', { size: (db.size / MEBIBYTE).toFixed(1) }) },
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
            fileList={file ? [{ uid: slot.id, name: file.name, status: 'done' }] : []}
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
            <Popconfirm title={text('removeConfirm')} onConfirm={() => remove.mutate(undefined)}>
              <Button danger loading={remove.isPending}>
                {t('remove')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Card>
  );
}
