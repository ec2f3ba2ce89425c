import {
  getNodeExporter,
  getSystemHealth,
  NODE_EXPORTER_DEFAULT,
  type SystemHealth,
  saveNodeExporter,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The node exporter setting (client/setting/nodeExporter) and the system health page
// (client/health), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const EXPORTER = '/client/systemManagement/nodeExporter';
const HEALTH = '/client/systemManagement/systemHealth';

describe('systemManagement/nodeExporter', () => {
  it('is in the menu; sends the addresses one per line with the limit, and names every bad line', async () => {
    api.on(getNodeExporter, ok(NODE_EXPORTER_DEFAULT));
    api.on(saveNodeExporter, ok({ whiteIPs: ['192.0.2.10', '10.0.0.0/8'], limitCountSec: 30, limitCountTimes: 6 }));
    renderAt(EXPORTER);
    const form = await screen.findByRole('form', { name: 'Node exporter' }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Node exporter' }).getAttribute('href')).toBe(EXPORTER);
    expect(screen.getByText(/Only the addresses below may scrape them; nobody while the list is empty/)).toBeTruthy();
    const box = within(form).getByLabelText('Addresses that may scrape') as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(''));
    expect((within(form).getByLabelText('Scrapes at most') as HTMLInputElement).value).toBe('60');

    // Every bad line is named, the repeated one too, and nothing is sent.
    fireEvent.change(box, { target: { value: '192.0.2.10\n  prometheus.example\n\n192.0.2.10\n10.0.0.0/99' } });
    typeInto(form, 'per (seconds)', '30');
    typeInto(form, 'Scrapes at most', '6');
    clickButton('Save', form);
    expect(await within(form).findByText('Line 2 (prometheus.example): Wrong format')).toBeTruthy();
    expect(within(form).getByText('Line 4 (192.0.2.10): Duplicate IP')).toBeTruthy();
    expect(within(form).getByText('Line 5 (10.0.0.0/99): Wrong format')).toBeTruthy();
    expect(api.sent(saveNodeExporter)).toHaveLength(0);

    fireEvent.change(box, { target: { value: '192.0.2.10\n10.0.0.0/8' } });
    clickButton('Save', form);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(saveNodeExporter)[0]?.body).toEqual({
      whiteIPs: ['192.0.2.10', '10.0.0.0/8'],
      limitCountSec: 30,
      limitCountTimes: 6,
    });
  });

  it('refuses a window over an hour in the form without calling the API', async () => {
    api.on(getNodeExporter, ok(NODE_EXPORTER_DEFAULT));
    renderAt(EXPORTER);
    const form = await screen.findByRole('form', { name: 'Node exporter' }, { timeout: 10_000 });
    await waitFor(() => expect((within(form).getByLabelText('per (seconds)') as HTMLInputElement).value).toBe('60'));
    typeInto(form, 'per (seconds)', '3601');
    clickButton('Save', form);
    await waitFor(() => expect(within(form).getByLabelText('per (seconds)').getAttribute('aria-invalid')).toBe('true'));
    expect(api.sent(saveNodeExporter)).toHaveLength(0);
  });
});

const health: SystemHealth = {
  status: 'warn',
  checkedAt: '2026-11-25T06:00:00.000Z',
  checks: [
    { part: 'configStore', status: 'ok', message: 'pglite answers', details: { driver: 'pglite' } },
    { part: 'analyticsStore', status: 'ok', message: 'answers', details: {} },
    { part: 'jobQueue', status: 'warn', message: '', details: { queued: 2, failed: 1, expired: 0 } },
    { part: 'nodes', status: 'warn', message: '', details: { up: 3, down: 1, uninitialized: 0 } },
    { part: 'certificates', status: 'ok', message: '', details: { failed: 0, expiring: 0, days: 14 } },
    { part: 'dns', status: 'error', message: 'cannot check: boom', details: {} },
    { part: 'licence', status: 'warn', message: '', details: { source: 'offline', daysLeft: 12 } },
  ],
};

describe('systemManagement/systemHealth', () => {
  it('is in the menu and shows each part with its status and what it found', async () => {
    api.on(getSystemHealth, ok(health));
    renderAt(HEALTH);
    const nodes = await findRow('Nodes');
    expect(screen.getByRole('link', { name: 'System health' }).getAttribute('href')).toBe(HEALTH);
    expect(within(nodes).getByText('Warning')).toBeTruthy();
    expect(within(nodes).getByText('3 nodes up, 1 down, 0 not placed in a zone.')).toBeTruthy();
    expect(within(await findRow('Config store')).getByText('The config store (pglite) answers.')).toBeTruthy();
    expect(within(await findRow('Job queue')).getByText('2 node commands waiting, 1 failed, 0 expired.')).toBeTruthy();
    const dns = await findRow('DNS');
    expect(within(dns).getByText('Error')).toBeTruthy();
    expect(within(dns).getByText('Could not be checked.')).toBeTruthy();
    // 'Licence' is a menu entry too: the row is found by its text.
    expect((await screen.findByText('The licence expires in 12 days.')).closest('tr')?.textContent).toContain(
      'Licence',
    );
    expect(screen.getAllByText('Warning').length).toBeGreaterThanOrEqual(3);
  });

  it('checks again on demand', async () => {
    api.on(getSystemHealth, ok(health));
    renderAt(HEALTH);
    await findRow('Nodes');
    clickButton('Check again');
    await waitFor(() => expect(api.sent(getSystemHealth).length).toBeGreaterThanOrEqual(2));
  });
});
