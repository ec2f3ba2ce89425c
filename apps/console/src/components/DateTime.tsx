import type { Locale } from '@rampart/contract';
import { LOCALE_TAGS, useLocale } from '../i18n';

/** A moment for people, in the browser's time zone; the text itself when it is not a date. */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE_TAGS[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A date and time cell; '—' when there is none (never seen, no expiry). */
export function DateTime({ value }: { value: string | null | undefined }) {
  const [locale] = useLocale();
  if (!value) return <>—</>;
  return <time dateTime={value}>{formatDateTime(value, locale)}</time>;
}
