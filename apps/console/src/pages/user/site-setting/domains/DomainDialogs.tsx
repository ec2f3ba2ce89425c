import { DomainAccessDrawer } from '../firewall/DomainAccessDrawer';
import { CopyToSiteModal, DomainTagsModal, UpstreamIPModal } from './DomainBatchModals';
import { DomainFormModal } from './DomainFormModal';
import { CreateFromDomainModal, DeleteByNamesModal, SimpleDomainsModal } from './DomainNameModals';
import type { DomainDialog } from './domain-list';

interface DomainDialogsProps {
  siteId: number;
  dialog: DomainDialog | null;
  onClose: () => void;
  /** The selection no longer names live domains (tags replaced, domains deleted by name). */
  onSelectionDone: () => void;
}

/** Every dialog of the domain list; `dialog` says which one is open. */
export function DomainDialogs({ siteId, dialog, onClose, onSelectionDone }: DomainDialogsProps) {
  const idsOf = (kind: 'tags' | 'copy' | 'upstreamIP') => (dialog?.kind === kind ? dialog.ids : null);
  return (
    <>
      <DomainFormModal siteId={siteId} domain={dialog?.kind === 'edit' ? dialog.domain : null} onClose={onClose} />
      <DomainAccessDrawer siteId={siteId} domain={dialog?.kind === 'access' ? dialog.domain : null} onClose={onClose} />
      <DomainTagsModal siteId={siteId} ids={idsOf('tags')} onClose={onClose} onDone={onSelectionDone} />
      <CopyToSiteModal siteId={siteId} ids={idsOf('copy')} onClose={onClose} />
      <UpstreamIPModal siteId={siteId} ids={idsOf('upstreamIP')} onClose={onClose} />
      <SimpleDomainsModal siteId={siteId} open={dialog?.kind === 'simple'} onClose={onClose} />
      <CreateFromDomainModal siteId={siteId} open={dialog?.kind === 'from'} onClose={onClose} />
      <DeleteByNamesModal
        siteId={siteId}
        open={dialog?.kind === 'delete'}
        onClose={() => {
          onClose();
          onSelectionDone();
        }}
      />
    </>
  );
}
