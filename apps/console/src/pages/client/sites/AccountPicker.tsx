// The picker lives in features/accounts now; this path stays for the licence pages that import it.
export { AccountPicker } from '../../../features/accounts/AccountPicker';
