import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { NUMBER_FORMS } from '../../apps/console/src/forms/number-walk.js';
import { login, type Tier } from '../support/console.js';
import { arrange, type FormOpener, type OpenContext } from '../support/number-open.js';
import { CUSTOMER_OPENERS } from '../support/number-openers-customer.js';
import { OPERATOR_OPENERS } from '../support/number-openers-operator.js';
import { walkForm } from '../support/number-walk.js';

/**
 * Every number box of the consoles refuses a value outside its contract field's bounds where it
 * was typed, and sends nothing (issue: a port typed as 70000 was saved as 65535). The forms and
 * their boxes are number-walk.ts's table (a test keeps it whole); the values come from the
 * contract's schemas at run time. One signed-in page per console, reused by every form.
 */

const OPENERS: Record<string, FormOpener> = { ...OPERATOR_OPENERS, ...CUSTOMER_OPENERS };

/** Submits a form: its own submit button, or the OK of the dialog it is in. */
async function submitIn(page: Page, scope: Locator, name?: string): Promise<void> {
  if (name !== undefined) return scope.getByRole('button', { name, exact: true }).click();
  const own = scope.locator('button[type="submit"]');
  if ((await own.count()) > 0) await own.first().click();
  else await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
}

async function signedIn(browser: Browser, tier: Tier): Promise<Page> {
  const page = await browser.newPage();
  await login(page, tier);
  return page;
}

for (const tier of ['client', 'user', 'admin'] as const) {
  const forms = NUMBER_FORMS.filter((form) => OPENERS[form.form]?.tier === tier);
  if (forms.length === 0) continue;
  test.describe(`the ${tier} console's number boxes`, () => {
    test.describe.configure({ mode: 'serial' });
    let page: Page;
    let context: OpenContext;
    test.beforeAll(async ({ browser }) => {
      context = await arrange(tier);
      page = await signedIn(browser, tier);
    });
    test.afterAll(async () => {
      await page?.close();
    });
    for (const form of forms) {
      test(`${form.form}: ${form.boxes.map((box) => box.field).join(', ')} refused where typed, nothing sent`, async () => {
        const opener = OPENERS[form.form];
        if (!opener) throw new Error(`no opener for ${form.form}`);
        const scope = await opener.open(page, context);
        const submit = () => submitIn(page, scope, opener.submit);
        const typed = await walkForm(page, form, scope, submit, opener.search);
        expect(typed).toBeGreaterThan(0);
        const dialogs = page.getByRole('dialog');
        if (opener.modal === 'close') await page.locator('.ant-modal-close').filter({ visible: true }).click();
        else if (opener.modal) await dialogs.getByRole('button', { name: 'Cancel' }).click();
        if (opener.drawer) {
          await expect(dialogs).toHaveCount(1);
          await page.locator('.ant-drawer-close').filter({ visible: true }).click();
        }
        if (opener.modal || opener.drawer) await expect(dialogs).toHaveCount(0);
      });
    }
  });
}

test('every form of the table is opened by the walk', () => {
  const tabled = new Set(NUMBER_FORMS.map((form) => form.form));
  expect(NUMBER_FORMS.filter((form) => !OPENERS[form.form]).map((form) => form.form)).toEqual([]);
  expect(Object.keys(OPENERS).filter((name) => !tabled.has(name))).toEqual([]);
});
