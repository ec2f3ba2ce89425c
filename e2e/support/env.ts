/** What global-setup.ts started, as the tests see it (passed through the environment). */
export const E2E = {
  get url(): string {
    return required('RAMPART_E2E_URL');
  },
  get password(): string {
    return required('RAMPART_E2E_PASSWORD');
  },
  get mailDir(): string {
    return required('RAMPART_E2E_MAIL_DIR');
  },
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through playwright test`);
  return value;
}
