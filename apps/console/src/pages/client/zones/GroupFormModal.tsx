import { type Group, groupRoutes } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { PortTypedFormModal } from './PortTypedFormModal';

interface GroupFormModalProps {
  zoneId: number;
  /** 'new' creates, a group edits it (its port type stays), null closes. */
  group: Group | 'new' | null;
  onClose: () => void;
}

/** Creates or edits a group of a zone: name, port type (7 or 4, fixed once made), backup flag, memo. */
export function GroupFormModal({ zoneId, group, onClose }: GroupFormModalProps) {
  const { t } = useTranslation('zones');
  return (
    <PortTypedFormModal
      zoneId={zoneId}
      item={group}
      onClose={onClose}
      create={groupRoutes.createGroup}
      update={groupRoutes.updateGroup}
      resource="groups"
      text={{
        create: t('group.create'),
        edit: t('group.edit'),
        name: t('group.name'),
        portType: t('group.portType'),
        memo: t('memo'),
      }}
      backupLabel={t('group.isBackup')}
    />
  );
}
