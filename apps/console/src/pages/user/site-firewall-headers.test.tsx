import {
  addAntiHeaders,
  addAntiReferers,
  addHeaderRules,
  listAntiHeaders,
  listAntiReferers,
  listHeaderRules,
  updateAntiReferer,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Header rules (a site firewall kind) and a domain's anti-referer and anti-header lists (a drawer
// from the domain list).
const api = pageTestApi(() => signedInFakeApi('user'));

const HEADERS = `${SITE_SETTING}?tab=firewall&kind=header`;
const domainParams = { siteId: 3, domainId: 9 };

const scanner = {
  id: 41,
  siteID: 3,
  urlRegex: '.*',
  header: 'X-Scanner',
  match: 'matches' as const,
  valueRegex: 'sqlmap|nikto',
  blockType: 10,
  enabled: true,
  memo: '',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const hotlinks = {
  id: 51,
  siteID: 3,
  domainID: 9,
  urlRegex: '\\.(png|jpg)$',
  mode: 'allow' as const,
  referers: ['www.example.com', '*.example.com'],
  allowEmpty: true,
  blockType: 10,
  enabled: true,
  memo: 'images',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

beforeEach(() => {
  stubSitePage(api, [siteDomain()], userSite());
  api.on(listHeaderRules, { siteId: 3 }, okPage([scanner]));
  api.on(listAntiReferers, domainParams, okPage([hotlinks]));
  api.on(listAntiHeaders, domainParams, okPage([]));
});

describe('sitesSetting: firewall header rules', () => {
  it('lists the rules and creates one for an absent header: no value pattern asked or sent', async () => {
    api.on(addHeaderRules, { siteId: 3 }, ok([{ ...scanner, id: 42, header: 'X-Api-Key', match: 'absent' }]));
    renderAt(HEADERS);
    const row = await findRow('X-Scanner');
    expect(within(row).getByText('sqlmap|nikto')).toBeTruthy();
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New header rule')).toBeTruthy();
    typeInto(dialog, 'Header', 'X_Api');
    typeInto(dialog, 'Value pattern', 'x');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.wrongFormat.en_US)).toBeTruthy();
    expect(api.sent(addHeaderRules, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'Header', ' X-Api-Key ');
    fireEvent.click(within(dialog).getByLabelText('Header absent'));
    expect(within(dialog).queryByLabelText('Value pattern')).toBeNull();
    await chooseOption(dialog, 'Protection mode', 'DROP');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addHeaderRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          urlRegex: '.*',
          header: 'X-Api-Key',
          match: 'absent',
          valueRegex: '',
          blockType: 11,
          enabled: true,
          memo: '',
        },
      ],
    });
  });
});

describe("sitesSetting: a domain's access rules", () => {
  async function openDrawer() {
    renderAt(SITE_SETTING);
    clickButton('Access', await findRow('www.example.com'));
    const title = await screen.findByText('Access rules of www.example.com');
    return title.closest('.ant-drawer') as HTMLElement;
  }

  it("creates an anti-referer rule with the spec's toast, the hosts one a line", async () => {
    api.on(addAntiReferers, domainParams, ok([{ ...hotlinks, id: 52 }]));
    const drawer = await openDrawer();
    expect(await within(drawer).findByText('www.example.com, *.example.com')).toBeTruthy();
    clickButton('Create', drawer);
    const dialog = await findModal();
    expect(within(dialog).getByText('New anti-referer rule')).toBeTruthy();
    typeInto(dialog, 'URL', '\\.(png|jpg)$');
    typeInto(dialog, 'Referer hosts', 'Example.com\n\n  *.cdn.example.com \nnot a host\nexample.com:8080');
    clickButton('OK', dialog);
    // Every bad line is named with its number and entry, not only the first.
    const format = VALIDATION_MESSAGES.invalid_format.en_US;
    expect(await within(dialog).findByText(`Line 4 (not a host): ${format}`)).toBeTruthy();
    expect(within(dialog).getByText(`Line 5 (example.com:8080): ${format}`)).toBeTruthy();
    expect(api.sent(addAntiReferers, domainParams)).toHaveLength(0);

    typeInto(dialog, 'Referer hosts', 'Example.com\n\n  *.cdn.example.com ');
    fireEvent.click(within(dialog).getByLabelText('Deny list'));
    fireEvent.click(within(dialog).getByLabelText('Empty referer allowed'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Anti-Referer Success!')).toBeTruthy();
    const sent = api.sent(addAntiReferers, domainParams)[0];
    expect(sent?.path).toBe('/user/site/3/domain/9/antiReferers');
    expect(sent?.body).toEqual({
      data: [
        {
          urlRegex: '\\.(png|jpg)$',
          mode: 'deny',
          referers: ['Example.com', '*.cdn.example.com'],
          allowEmpty: false,
          blockType: 10,
          enabled: true,
          memo: '',
        },
      ],
    });
    await modalClosed(dialog);
  });

  it('edits an anti-referer rule with PUT on the singular path', async () => {
    api.on(updateAntiReferer, domainParams, ok({ ...hotlinks, memo: 'pictures' }));
    const drawer = await openDrawer();
    clickButton(
      'Edit',
      await within(drawer)
        .findByText('www.example.com, *.example.com')
        .then((cell) => cell.closest('tr') as HTMLElement),
    );
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Referer hosts') as HTMLTextAreaElement).value).toBe(
      'www.example.com\n*.example.com',
    );
    typeInto(dialog, 'Memo', 'pictures');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateAntiReferer, domainParams)[0];
    expect([sent?.method, sent?.path]).toEqual(['PUT', '/user/site/3/domain/9/antiReferer']);
    expect(sent?.body).toMatchObject({ id: 51, referers: ['www.example.com', '*.example.com'], memo: 'pictures' });
  });

  it('creates an anti-header rule in the other list', async () => {
    api.on(addAntiHeaders, domainParams, ok([{ ...scanner, id: 61, domainID: 9 }]));
    const drawer = await openDrawer();
    fireEvent.click(within(drawer).getByText('Anti-header'));
    expect(await within(drawer).findByText('No anti-header rules yet.')).toBeTruthy();
    clickButton('Create', drawer);
    const dialog = await findModal();
    typeInto(dialog, 'Header', 'X-Token');
    typeInto(dialog, 'Value pattern', 'stolen');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addAntiHeaders, domainParams)[0]?.body).toEqual({
      data: [
        {
          urlRegex: '.*',
          header: 'X-Token',
          match: 'matches',
          valueRegex: 'stolen',
          blockType: 10,
          enabled: true,
          memo: '',
        },
      ],
    });
  });
});
