import { formatMessage, type Tier, TOASTS } from '@rampart/contract';
import { localized } from '../../../app/toast';
import { i18n } from '../../../i18n/i18n';

/** 'Create {auth} Successful!' and its kin, `{auth}` being the kind of account (spec part 1 §8). */
export function authToast(key: 'createAuthSuccess' | 'updateAuthSuccess' | 'removeAuthSuccess', kind: Tier): string {
  return formatMessage(localized(TOASTS[key]), { auth: i18n.t(`accounts:kinds.${kind}`) });
}
