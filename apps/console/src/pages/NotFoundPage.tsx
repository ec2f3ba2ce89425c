import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** /404 and every unknown path. */
export function NotFoundPage() {
  const { t } = useTranslation(['notFound', 'common']);
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('title')}
      subTitle={t('subTitle')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('common:backHome')}
        </Button>
      }
    />
  );
}
