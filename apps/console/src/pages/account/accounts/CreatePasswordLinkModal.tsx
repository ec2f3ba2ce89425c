import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A create-password link answered to the operator (an installation without mail, or by choice):
 * shown once with a copy button; the account owner opens it to set a password. A newer link or a
 * use spends it (docs/decisions "new-harden-create-password-link").
 */
export function CreatePasswordLinkModal({ link, onClose }: { link: string | null; onClose: () => void }) {
  const { t } = useTranslation(['accounts', 'common']);
  return (
    <Modal
      open={link !== null}
      title={t('linkTitle')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ hidden: true }}
    >
      <Typography.Paragraph>{t('linkText')}</Typography.Paragraph>
      <Typography.Paragraph
        code
        copyable={{ text: link ?? '' }}
        aria-label={t('linkTitle')}
        style={{ wordBreak: 'break-all' }}
      >
        {link}
      </Typography.Paragraph>
    </Modal>
  );
}
