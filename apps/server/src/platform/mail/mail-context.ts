import type { Locale } from '@rampart/contract';

/**
 * What a mail caused by a request takes from that request: the address its links point at and the
 * language of its text. The spec keeps a person's language in their browser only, so the request
 * that causes a mail is the one place the server learns it. This is the content's language;
 * errors never travel this way (services raise keys, the error handler words them).
 */
export interface MailContext {
  readonly baseUrl: string;
  readonly locale: Locale;
}
