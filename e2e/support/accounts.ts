import { createAccount, setSubAccountPassword } from '@rampart/contract';
import { api } from './api.js';
import { E2E } from './env.js';
import { uniqueLabel } from './sites.js';

export interface Customer {
  id: number;
  account: string;
  name: string;
  email: string;
  password: string;
}

/**
 * A customer of the operator, arranged through the API: created (the create-password mail goes to
 * the local SMTP server and is left unread), then given the e2e password by the operator
 * (`PUT client/account/password`), so that a test can sign it in at once. Names are unique per run.
 */
export async function newCustomer(prefix: string): Promise<Customer> {
  const account = uniqueLabel(prefix);
  const customer = { account, name: `${prefix} ${account.slice(prefix.length)}`, email: `${account}@rampart.test` };
  const created = await api('client', createAccount, {
    params: { auth: 'client' },
    body: { auth: 'user', ...customer },
  });
  await api('client', setSubAccountPassword, {
    params: { auth: 'client' },
    body: {
      id: created.id,
      password: E2E.password,
      confirmPassword: E2E.password,
    },
  });
  return { id: created.id, ...customer, password: E2E.password };
}
