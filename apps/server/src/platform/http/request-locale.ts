import { type Locale, localeFromLanguageTag } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';

/** Language of the server's messages: from Accept-Language, English when none is asked for (the spec's texts). */
export function requestLocale(request: FastifyRequest): Locale {
  return localeFromLanguageTag(request.headers['accept-language'], 'en_US');
}
