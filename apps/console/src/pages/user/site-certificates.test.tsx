import {
  assignCertificate,
  createCertificate,
  deleteCertificates,
  getCertificate,
  listCertificates,
  listDomains,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { certificateDetail, certificateSummary, signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
const api = pageTestApi(signedInSiteTab);

const CERTIFICATES = '/user/sitesManagement/sitesSetting/3/shop?tab=certificates';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

const summary = certificateSummary();

describe('sitesSetting: certificates', () => {
  beforeEach(() => {
    api.on(listCertificates, { siteId: 3 }, okPage([summary]));
  });

  it('uploads a certificate whose chain and key are read from files in the browser', async () => {
    api.on(
      createCertificate,
      { siteId: 3 },
      ok(certificateDetail({ id: 8, name: 'shop-2027', certificate: PEM, domainCount: 0 })),
    );
    renderAt(CERTIFICATES);
    const row = await findRow('wildcard-2026');
    expect(within(row).getByText('Expiring')).toBeTruthy();
    expect(within(row).getByText('*.example.com')).toBeTruthy();
    clickButton('Upload certificate');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'shop-2027');
    fireEvent.change(within(dialog).getByLabelText('Certificate file'), {
      target: { files: [new File([PEM], 'chain.pem')] },
    });
    fireEvent.change(within(dialog).getByLabelText('Private key file'), {
      target: { files: [new File([KEY], 'key.pem')] },
    });
    await waitFor(() =>
      expect((within(dialog).getByLabelText('Private key (PEM)') as HTMLTextAreaElement).value).toBe(KEY),
    );
    expect((within(dialog).getByLabelText('Certificate (PEM chain)') as HTMLTextAreaElement).value).toBe(PEM);
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Certificate Success!')).toBeTruthy();
    expect(api.sent(createCertificate, { siteId: 3 })[0]?.body).toEqual({
      name: 'shop-2027',
      memo: '',
      certificate: PEM,
      privateKey: KEY,
    });
  });

  it('shows a certificate’s details in a drawer, and the domains that keep it from being deleted', async () => {
    const fields = [
      {
        in: 'body',
        field: 'ids.0',
        key: 'certificateInUse',
        message: 'The certificate is still assigned to: www.example.com',
      },
    ];
    api.on(deleteCertificates, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    api.on(
      getCertificate,
      { siteId: 3, certificateId: 7 },
      ok(
        certificateDetail({
          certificate: PEM,
          fingerprintSha256: 'AB:CD:EF',
          domains: [{ id: 9, name: 'www.example.com' }],
        }),
      ),
    );
    renderAt(CERTIFICATES);
    clickButton('wildcard-2026', await findRow('wildcard-2026'));
    const drawer = (await screen.findByText('AB:CD:EF')).closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('Example CA')).toBeTruthy();
    expect(within(drawer).getByText('www.example.com')).toBeTruthy();
    expect((within(drawer).getByLabelText('Certificate chain') as HTMLTextAreaElement).value).toBe(PEM);
    fireEvent.click(within(drawer).getByLabelText('Close'));

    clickButton('Delete', await findRow('wildcard-2026'));
    clickButton('Delete', await findPopconfirm('Delete the certificate wildcard-2026?'));
    expect(await screen.findByText('The certificate is still assigned to: www.example.com')).toBeTruthy();
    expect(api.sent(deleteCertificates, { siteId: 3 })[0]?.body).toEqual({ ids: [7] });
  });

  it('assigns a certificate to domains picked from the site’s domain list', async () => {
    api.on(listDomains, { siteId: 3 }, okPage([siteDomain()]));
    api.on(assignCertificate, { siteId: 3 }, ok(true));
    renderAt(CERTIFICATES);
    clickButton('Assign', await findRow('wildcard-2026'));
    const dialog = await findModal();
    await waitFor(() => expect(api.sent(listDomains, { siteId: 3 })).toHaveLength(1));
    await chooseOption(dialog, 'Domains', 'www.example.com');
    clickButton('OK', dialog);
    expect(await screen.findByText('Assign Certificate To Domain Success!')).toBeTruthy();
    expect(api.sent(assignCertificate, { siteId: 3 })[0]?.body).toEqual({
      certificateID: 7,
      domainIDs: [9],
    });
  });
});
