import type { Locale } from '@rampart/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from './i18n';

/** The interface language and a setter that switches it and keeps the choice; re-renders on change. */
export function useLocale(): [Locale, (locale: Locale) => void] {
  // useTranslation subscribes this component to language changes.
  useTranslation();
  const setLocale = useCallback((locale: Locale) => {
    void changeLocale(locale);
  }, []);
  return [currentLocale(), setLocale];
}
