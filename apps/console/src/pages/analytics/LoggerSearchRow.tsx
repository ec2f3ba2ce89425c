import { LOG_URL_MATCHES, logFilterBase, logWafFilters } from '@rampart/contract';
import { Button, Flex, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterNumber, numberRefusal } from '../../forms/FilterNumber';
import { DECISIONS, type LogKind, METHODS, type SearchFields, type UrlMatch } from './logger-search';

/** The number filters as the contract's log search takes them. */
const STATUS_FILTER = logFilterBase.shape.status;
const RULE_FILTER = logWafFilters.ruleId;

/** The search row: typed values are sent when Search is pressed (or Enter in a field). */
export function SearchRow({
  kind,
  initial,
  onSearch,
}: {
  kind: LogKind;
  initial: SearchFields;
  onSearch: (fields: SearchFields) => void;
}) {
  const { t } = useTranslation('logs');
  const [draft, setDraft] = useState<SearchFields>(initial);
  const set = (change: Partial<SearchFields>) => setDraft((previous) => ({ ...previous, ...change }));
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  // A refused number is named under its box and searches nothing.
  const submit = () =>
    numberRefusal(STATUS_FILTER, draft.status) === null &&
    numberRefusal(RULE_FILTER, draft.ruleId) === null &&
    onSearch(draft);
  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <Input
        allowClear
        style={{ width: 170 }}
        aria-label={t('filters.ip')}
        placeholder={t('filters.ip')}
        value={draft.ip ?? ''}
        onChange={(e) => set({ ip: text(e.target.value) })}
        onPressEnter={submit}
      />
      <FilterNumber
        schema={STATUS_FILTER}
        label={t('filters.status')}
        width={110}
        value={draft.status}
        onChange={(status) => set({ status })}
        onPressEnter={submit}
      />
      <Select
        allowClear
        style={{ width: 120 }}
        aria-label={t('filters.method')}
        placeholder={t('filters.method')}
        value={draft.method}
        options={METHODS.map((m) => ({ value: m, label: m }))}
        onChange={(method?: string) => set({ method })}
      />
      <Select<UrlMatch>
        style={{ width: 110 }}
        aria-label={t('filters.urlMatch')}
        value={draft.urlMatch}
        options={LOG_URL_MATCHES.map((m) => ({ value: m, label: t(`filters.urlMatches.${m}`) }))}
        onChange={(urlMatch) => set({ urlMatch })}
      />
      <Input
        allowClear
        style={{ width: 240 }}
        aria-label={t('filters.url')}
        placeholder={t('filters.url')}
        value={draft.url ?? ''}
        onChange={(e) => set({ url: e.target.value === '' ? undefined : e.target.value })}
        onPressEnter={submit}
      />
      <Input
        allowClear
        style={{ width: 200 }}
        aria-label={t('filters.reqID')}
        placeholder={t('filters.reqID')}
        value={draft.reqID ?? ''}
        onChange={(e) => set({ reqID: text(e.target.value) })}
        onPressEnter={submit}
      />
      {kind === 'access' && (
        <Select
          allowClear
          style={{ width: 150 }}
          aria-label={t('filters.decision')}
          placeholder={t('filters.decision')}
          value={draft.decision}
          options={DECISIONS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          onChange={(decision?: string) => set({ decision })}
        />
      )}
      {kind === 'waf' && (
        <>
          <FilterNumber
            schema={RULE_FILTER}
            label={t('filters.ruleId')}
            width={130}
            value={draft.ruleId}
            onChange={(ruleId) => set({ ruleId })}
            onPressEnter={submit}
          />
          <Select
            allowClear
            style={{ width: 140 }}
            aria-label={t('filters.action')}
            placeholder={t('filters.action')}
            value={draft.action}
            options={[
              { value: 'deny', label: t('actions.deny') },
              { value: 'detect', label: t('actions.detect') },
            ]}
            onChange={(action?: string) => set({ action })}
          />
        </>
      )}
      <Button type="primary" onClick={submit}>
        {t('search')}
      </Button>
    </Flex>
  );
}
