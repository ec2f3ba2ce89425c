import { accountRoutes, PAGE_SIZE_CHOICES } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Divider, Select } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../app/route-query';

/** How many accounts one search shows; the rest are found by typing more. */
const PICKER_PAGE_SIZE = PAGE_SIZE_CHOICES[0];

interface AccountPickerProps {
  id?: string;
  value?: number;
  onChange?: (id: number | undefined) => void;
  /** A list filter: the choice can be cleared, the select is named and says what no choice means. */
  allowClear?: boolean;
  ariaLabel?: string;
  placeholder?: string;
  style?: CSSProperties;
  /** The console that searches: the operator's customers (default), or the vendor's operators. */
  console?: 'client' | 'admin';
}

/**
 * Picks an account (a form control): `GET {console}/accounts` of its default tab (an operator's
 * customers; the vendor's operators), searched on the server by account or name as one types,
 * first page shown, with how many more match.
 */
export function AccountPicker({
  id,
  value,
  onChange,
  allowClear,
  ariaLabel,
  placeholder,
  style,
  console: tier = 'client',
}: AccountPickerProps) {
  const { t } = useTranslation(['sites', 'common']);
  const [name, setName] = useState('');
  const accounts = useQuery({
    ...routeQuery(tier, accountRoutes.listAccounts, {
      params: { auth: tier },
      query: { page: 1, pageSize: PICKER_PAGE_SIZE, name: name === '' ? undefined : name },
    }),
    placeholderData: keepPreviousData,
  });
  const total = accounts.data?.total ?? 0;
  const shown = accounts.data?.data.length ?? 0;
  const options = (accounts.data?.data ?? []).map((account) => ({
    value: account.id,
    label: account.name ? `${account.account} (${account.name})` : account.account,
  }));
  // The chosen account keeps its label while a later search no longer lists it.
  const [chosen, setChosen] = useState<{ value: number; label: string } | undefined>(undefined);
  if (chosen && chosen.value === value && !options.some((option) => option.value === value)) options.unshift(chosen);

  return (
    <Select
      id={id}
      allowClear={allowClear}
      aria-label={ariaLabel}
      style={style}
      showSearch={{ filterOption: false, onSearch: (text) => setName(text.trim()) }}
      value={value}
      onChange={(next: number | undefined) => {
        setChosen(options.find((option) => option.value === next));
        onChange?.(next);
      }}
      loading={accounts.isFetching}
      placeholder={placeholder ?? t('create.userSearch')}
      options={options}
      notFoundContent={t('create.noUsers')}
      popupRender={(menu) => (
        <>
          {menu}
          {total > shown && (
            <>
              <Divider style={{ margin: '4px 0' }} />
              <div style={{ padding: '0 8px 4px' }}>{t('create.moreUsers', { shown, total })}</div>
            </>
          )}
        </>
      )}
    />
  );
}
