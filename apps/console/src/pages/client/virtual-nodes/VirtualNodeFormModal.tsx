import { type VirtualNode, virtualNodeRoutes } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { PortTypedFormModal } from '../zones/PortTypedFormModal';

/** Creates or edits a virtual node: name, port type (fixed once made), memo. */
export function VirtualNodeFormModal({
  zoneId,
  node,
  onClose,
}: {
  zoneId: number;
  /** 'new' creates, a virtual node edits it, null closes. */
  node: VirtualNode | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('virtualNodes');
  return (
    <PortTypedFormModal
      zoneId={zoneId}
      item={node}
      onClose={onClose}
      create={virtualNodeRoutes.createVirtualNode}
      update={virtualNodeRoutes.updateVirtualNode}
      resource="virtualNodes"
      text={{ create: t('create'), edit: t('edit'), name: t('name'), portType: t('portType'), memo: t('memo') }}
    />
  );
}
