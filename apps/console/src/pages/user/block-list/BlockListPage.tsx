import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/PageTitle';
import { BlockList } from '../../../features/block-list/BlockList';

/**
 * `/user/sitesManagement/blockList`: the addresses the customer's DROP + Blacklist rules blocked, on
 * every site, with unblock.
 */
export function BlockListPage() {
  const { t } = useTranslation('shell');
  return (
    <>
      <PageTitle>{t('menu.blockList')}</PageTitle>
      <BlockList tier="user" />
    </>
  );
}
