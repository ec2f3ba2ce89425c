import {
  createZonePorts,
  deleteZonePorts,
  getZoneL4Protection,
  getZoneNginx,
  getZoneReservedPorts,
  getZoneResource,
  getZoneSettings,
  getZoneTrust,
  listInitializedNodes,
  listZonePorts,
  listZonePreheatTasks,
  listZones,
  OPERATOR_NGINX_SECTION_ROUTES,
  preheatZoneCaches,
  setZoneChallengeWorkBits,
  setZoneInvalidDomainLimitCount,
  setZoneL4Protection,
  setZoneNginxEnable,
  setZoneReservedPorts,
  setZoneTlsLimitCount,
  setZoneTrust,
  VALIDATION_MESSAGES,
  zoneNginxCustom,
  zoneNginxWorker,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import { clickButton, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

const api = pageTestApi(() => signedInFakeApi('client'));

const zone = {
  id: 1,
  name: 'Asia',
  memo: '',
  nodeCount: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const listenSettings = {
  http2: true,
  http3: false,
  forceSSLRedirectCode: 301,
  invalidDomainLimitCount: 0,
  tlsLimitCount: 25,
  challengeWorkBits: 21,
};
const node = (lastError: string) => initializedNode({ zoneId: 1, zoneName: 'Asia', name: 'edge-tokyo-1', lastError });

beforeEach(() => {
  api.on(listZones, okPage([zone]));
  api.on(getZoneSettings, { zoneID: 1 }, ok(listenSettings));
  api.on(getZoneReservedPorts, { zoneID: 1 }, ok({ ports: [22, 53], nodePorts: [9180] }));
});

async function openTab(tab: string): Promise<HTMLElement> {
  renderAt('/client/nodeManage/zonesList');
  clickButton('Settings', await findRow('Asia'));
  const drawer = await screen.findByRole('dialog');
  fireEvent.click(within(drawer).getByText(tab, { selector: '[role="tab"], [role="tab"] *' }));
  return drawer;
}

describe("a zone's limits per client IP", () => {
  it('shows both limits with their help, saves each, and puts a refused count under its field', async () => {
    api.on(setZoneInvalidDomainLimitCount, { zoneID: 1 }, ok({ ...listenSettings, invalidDomainLimitCount: 20 }));
    api.on(setZoneTlsLimitCount, { zoneID: 1 }, () =>
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'count', key: 'tooLarge', message: 'At most 100000' }],
      }),
    );
    const drawer = await openTab('Listen');
    const invalid = await within(drawer).findByRole('form', { name: 'Requests for unknown hosts per minute' });
    const tls = within(drawer).getByRole('form', { name: 'TLS handshakes per minute' });
    await waitFor(() =>
      expect((within(invalid).getByLabelText('Requests for unknown hosts per minute') as HTMLInputElement).value).toBe(
        '0',
      ),
    );
    expect((within(tls).getByLabelText('TLS handshakes per minute') as HTMLInputElement).value).toBe('25');
    expect(
      within(invalid).getByText(/every request from that IP to any host of the node for the next 5 minutes/),
    ).toBeTruthy();
    expect(within(invalid).getByText(/0 = off/)).toBeTruthy();
    expect(within(tls).getByText(/resumed sessions do not count/)).toBeTruthy();

    typeInto(invalid, 'Requests for unknown hosts per minute', '20');
    clickButton('Save', invalid);
    await waitFor(() =>
      expect(api.sent(setZoneInvalidDomainLimitCount, { zoneID: 1 })[0]?.body).toEqual({ count: 20 }),
    );
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();

    // An empty input is refused before any call.
    typeInto(tls, 'TLS handshakes per minute', '');
    clickButton('Save', tls);
    expect(await within(tls).findByText('This field is required')).toBeTruthy();
    // Above the contract's bound: refused under the field, nothing sent.
    typeInto(tls, 'TLS handshakes per minute', '100001');
    clickButton('Save', tls);
    expect(await within(tls).findByText('Must be at most 100000')).toBeTruthy();
    expect(api.sent(setZoneTlsLimitCount, { zoneID: 1 })).toHaveLength(0);

    typeInto(tls, 'TLS handshakes per minute', '500');
    clickButton('Save', tls);
    expect(await within(tls).findByText('At most 100000')).toBeTruthy();
    expect(api.sent(setZoneTlsLimitCount, { zoneID: 1 })[0]?.body).toEqual({ count: 500 });
  });
});

describe("a zone's challenge work", () => {
  it('shows the bits with their help, saves them, and refuses a number outside 16..24 before any call', async () => {
    api.on(setZoneChallengeWorkBits, { zoneID: 1 }, ok({ ...listenSettings, challengeWorkBits: 18 }));
    const drawer = await openTab('Listen');
    const work = await within(drawer).findByRole('form', { name: 'Proof of work (bits)' });
    await waitFor(() =>
      expect((within(work).getByLabelText('Proof of work (bits)') as HTMLInputElement).value).toBe('21'),
    );
    expect(within(work).getByText(/each bit doubles it/)).toBeTruthy();

    for (const [bad, refusal] of [
      ['25', 'Must be at most 24'],
      ['15', 'Must be at least 16'],
      ['', 'This field is required'],
    ] as const) {
      typeInto(work, 'Proof of work (bits)', bad);
      clickButton('Save', work);
      expect(await within(work).findByText(refusal)).toBeTruthy();
    }
    expect(api.sent(setZoneChallengeWorkBits, { zoneID: 1 })).toHaveLength(0);

    typeInto(work, 'Proof of work (bits)', '18');
    clickButton('Save', work);
    await waitFor(() => expect(api.sent(setZoneChallengeWorkBits, { zoneID: 1 })[0]?.body).toEqual({ bits: 18 }));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });
});

describe("a zone's reserved ports", () => {
  it('shows the list and the node ports, saves a new list, and puts a refused number under the field', async () => {
    api.on(listZonePorts, { zoneID: 1 }, okPage([{ id: 1, port: 80, portType: 'http' }]));
    let calls = 0;
    api.on(setZoneReservedPorts, { zoneID: 1 }, () => {
      calls++;
      return calls === 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [
              { in: 'body', field: 'ports.2', key: 'portInUse', message: 'Port 80 is already used in this zone' },
            ],
          })
        : ok({ ports: [22, 53, 3306], nodePorts: [9180] });
    });
    const drawer = await openTab('Ports');
    const form = await within(drawer).findByRole('form', { name: 'Reserved ports' });
    expect(await within(form).findByText('22')).toBeTruthy();
    expect(within(form).getByText('53')).toBeTruthy();
    expect(within(form).getByText(/Always reserved besides: 9180/)).toBeTruthy();

    const input = within(form).getByLabelText('Reserved ports');
    fireEvent.change(input, { target: { value: '80' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    clickButton('Save reserved ports', form);
    expect(await within(form).findByText('Port 80 is already used in this zone')).toBeTruthy();
    expect(api.sent(setZoneReservedPorts, { zoneID: 1 })[0]?.body).toEqual({ ports: [22, 53, 80] });
  });
});

describe("a zone's reserved ports: bad numbers", () => {
  it('names every bad number with its place and sends nothing', async () => {
    api.on(listZonePorts, { zoneID: 1 }, okPage([]));
    api.on(setZoneReservedPorts, { zoneID: 1 }, ok({ ports: [22, 53], nodePorts: [9180] }));
    const drawer = await openTab('Ports');
    const form = await within(drawer).findByRole('form', { name: 'Reserved ports' });
    expect(await within(form).findByText('22')).toBeTruthy();
    const input = within(form).getByLabelText('Reserved ports');
    fireEvent.change(input, { target: { value: '70000,3306,ssh,' } });
    clickButton('Save reserved ports', form);
    expect(await within(form).findByText(/^Port 3 \(70000\): /)).toBeTruthy();
    expect(within(form).getByText(/^Port 5 \(ssh\): /)).toBeTruthy();
    expect(within(form).queryByText(/^Port 4 /)).toBeNull();
    expect(api.sent(setZoneReservedPorts, { zoneID: 1 })).toHaveLength(0);
  });
});

describe("a zone's trusted proxies", () => {
  it('shows the setting, sends the proxies one per line, warns about the PROXY protocol, and names every bad line', async () => {
    api.on(
      getZoneTrust,
      { zoneID: 1 },
      ok({ proxies: ['10.0.0.0/8'], header: 'X-Forwarded-For', proxyProtocol: false }),
    );
    api.on(
      setZoneTrust,
      { zoneID: 1 },
      ok({ proxies: ['10.0.0.0/8', '192.0.2.1'], header: 'X-Forwarded-For', proxyProtocol: true }),
    );
    const drawer = await openTab('Trusted proxies');
    const form = await within(drawer).findByRole('form', { name: 'Trusted proxies' });
    const box = within(form).getByLabelText('Trusted proxies') as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe('10.0.0.0/8'));
    expect(within(form).queryByText(/accept only connections that start with a PROXY header/)).toBeNull();

    // Every bad line is named, the repeated one too, and nothing is sent.
    fireEvent.change(box, { target: { value: '10.0.0.0/8\n  proxy.example\n\n10.0.0.0/8\n300.1.1.1' } });
    clickButton('Save', form);
    expect(await within(form).findByText('Line 2 (proxy.example): Wrong format')).toBeTruthy();
    expect(within(form).getByText('Line 4 (10.0.0.0/8): Duplicate IP')).toBeTruthy();
    expect(within(form).getByText('Line 5 (300.1.1.1): Wrong format')).toBeTruthy();
    expect(api.sent(setZoneTrust, { zoneID: 1 })).toHaveLength(0);

    fireEvent.change(box, { target: { value: '10.0.0.0/8\n192.0.2.1' } });
    fireEvent.click(within(form).getByRole('switch', { name: 'PROXY protocol' }));
    expect(await within(form).findByText(/accept only connections that start with a PROXY header/)).toBeTruthy();
    clickButton('Save', form);
    await waitFor(() => expect(api.sent(setZoneTrust, { zoneID: 1 })).toHaveLength(1));
    expect(api.sent(setZoneTrust, { zoneID: 1 })[0]?.body).toEqual({
      proxies: ['10.0.0.0/8', '192.0.2.1'],
      header: 'X-Forwarded-For',
      proxyProtocol: true,
    });
  });
});

describe("a zone's layer-4 protection", () => {
  it('shows the rates off, turns one on with its numbers checked by the contract, and saves the whole setting', async () => {
    api.on(
      getZoneL4Protection,
      { zoneID: 1 },
      ok({
        synFlood: null,
        newConnections: { rate: 50, burst: 20 },
        kernelBlocks: false,
        escalation: { refusals: 200, seconds: 10 },
      }),
    );
    let calls = 0;
    api.on(setZoneL4Protection, { zoneID: 1 }, () => {
      calls++;
      return calls === 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [{ in: 'body', field: 'synFlood.burst', key: 'tooBig', message: 'Burst too large' }],
          })
        : ok({
            synFlood: { rate: 100, burst: 0 },
            newConnections: null,
            kernelBlocks: true,
            escalation: { refusals: 50, seconds: 10 },
          });
    });
    const drawer = await openTab('Layer-4 protection');
    const form = await within(drawer).findByRole('form', { name: 'Layer-4 protection' });
    const syn = within(form).getByRole('switch', { name: 'TCP handshakes (SYN) per source address' });
    const conns = within(form).getByRole('switch', { name: 'New connections per source address' });
    await waitFor(() => expect(conns.getAttribute('aria-checked')).toBe('true'));
    expect(syn.getAttribute('aria-checked')).toBe('false');
    expect(within(form).queryByLabelText('TCP handshakes (SYN) per source address: rate')).toBeNull();
    expect((within(form).getByLabelText('New connections per source address: rate') as HTMLInputElement).value).toBe(
      '50',
    );

    fireEvent.click(syn);
    const rate = await within(form).findByLabelText('TCP handshakes (SYN) per source address: rate');
    clickButton('Save', form);
    expect(await within(form).findByText(VALIDATION_MESSAGES.required.en_US)).toBeTruthy();
    fireEvent.change(rate, { target: { value: '20000000' } });
    clickButton('Save', form);
    expect(await within(form).findByText('Must be at most 10000000')).toBeTruthy();
    expect(api.sent(setZoneL4Protection, { zoneID: 1 })).toHaveLength(0);

    fireEvent.change(rate, { target: { value: '100' } });
    // The escalation of floods shows on, with its numbers; the contract checks them too.
    expect(
      within(form).getByRole('switch', { name: 'Escalate floods to the kernel' }).getAttribute('aria-checked'),
    ).toBe('true');
    const refusals = within(form).getByLabelText('Refused requests') as HTMLInputElement;
    expect(refusals.value).toBe('200');
    fireEvent.change(refusals, { target: { value: '5' } });
    clickButton('Save', form);
    expect(await within(form).findByText('Must be at least 10')).toBeTruthy();
    expect(api.sent(setZoneL4Protection, { zoneID: 1 })).toHaveLength(0);
    fireEvent.change(refusals, { target: { value: '50' } });
    fireEvent.click(conns);
    fireEvent.click(within(form).getByRole('switch', { name: /Push layer-7 DROP \+ Blacklist blocks/ }));
    clickButton('Save', form);
    expect(await within(form).findByText('Burst too large')).toBeTruthy();
    expect(api.sent(setZoneL4Protection, { zoneID: 1 })[0]?.body).toEqual({
      synFlood: { rate: 100, burst: 0 },
      newConnections: null,
      kernelBlocks: true,
      escalation: { refusals: 50, seconds: 10 },
    });
    clickButton('Save', form);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  }, 60_000);
});

describe("a zone's listen ports", () => {
  it('lists the ports, puts a refused port under its field, adds one and removes one', async () => {
    const ports = [
      { id: 1, port: 80, portType: 'http' },
      { id: 2, port: 443, portType: 'https' },
    ];
    api.on(listZonePorts, { zoneID: 1 }, okPage(ports));
    api.on(createZonePorts, { zoneID: 1 }, (request) => {
      const [wanted] = (request.body as { ports: { port: number }[] }).ports;
      return wanted?.port === 443
        ? fail(400, 101003, 'Parameter Error', {
            fields: [{ in: 'body', field: 'ports.0.port', key: 'portInUse', message: 'Port 443 is already used' }],
          })
        : okPage([...ports, { id: 3, port: 8080, portType: 'http' }]);
    });
    api.on(deleteZonePorts, { zoneID: 1 }, okPage([ports[1]]));
    const drawer = await openTab('Ports');
    expect(await within(drawer).findByText('443')).toBeTruthy();
    expect(within(drawer).getByText('HTTPS')).toBeTruthy();

    typeInto(drawer, 'Port', '443');
    clickButton('Add port', drawer);
    expect(await within(drawer).findByText('Port 443 is already used')).toBeTruthy();

    typeInto(drawer, 'Port', '8080');
    clickButton('Add port', drawer);
    await waitFor(() =>
      expect(api.sent(createZonePorts, { zoneID: 1 }).at(-1)?.body).toEqual({
        ports: [{ port: 8080, portType: 'http' }],
      }),
    );
    expect(await screen.findByText('Create Success!')).toBeTruthy();

    const row = within(drawer).getByText('80', { selector: 'td, td *' }).closest('tr') as HTMLElement;
    clickButton('Delete', row);
    clickButton('Delete', await findPopconfirm('Stop listening on port 80?'));
    await waitFor(() => expect(api.sent(deleteZonePorts, { zoneID: 1 })[0]?.body).toEqual({ ids: [1] }));
  });
});

describe("a zone's nginx settings", () => {
  const nginx = {
    enable: false,
    worker: {},
    http: { keepaliveTimeoutSeconds: 30 },
    stream: {},
    custom: [{ context: 'http', name: 'gzip', args: ['on'] }],
  };

  beforeEach(() => {
    api.on(getZoneNginx, { zoneID: 1 }, ok(nginx));
    api.on(listInitializedNodes, okPage([node('nginx -t refused the config: ... (gzip_comp_level 99;)')]));
  });

  it('turns the settings on, saves a section, and shows the nodes that refused the last change', async () => {
    api.on(setZoneNginxEnable, { zoneID: 1 }, ok({ ...nginx, enable: true }));
    api.on(zoneNginxWorker.put, { zoneID: 1 }, ok({ workerConnections: 2048 }));
    const drawer = await openTab('nginx');
    expect(await within(drawer).findByText('1 node refused the last change')).toBeTruthy();
    expect(within(drawer).getByText(/gzip_comp_level 99;/)).toBeTruthy();
    expect(Object.fromEntries(api.sent(listInitializedNodes)[0]?.search ?? [])).toMatchObject({
      zoneIDs: '1',
    });

    const toggle = within(drawer).getByLabelText('Apply these nginx settings');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(api.sent(setZoneNginxEnable, { zoneID: 1 })[0]?.body).toEqual({ enable: true }));

    const worker = within(drawer).getByRole('form', { name: 'Worker' });
    expect((within(worker).getByLabelText('Connections per worker') as HTMLInputElement).placeholder).toBe('4096');
    typeInto(worker, 'Connections per worker', '2048');
    clickButton('Save', worker);
    await waitFor(() =>
      expect(api.sent(zoneNginxWorker.put, { zoneID: 1 })[0]?.body).toEqual({
        value: { workerConnections: 2048 },
      }),
    );
  });

  it('sends custom directives with their arguments split, and puts a refused argument under its row', async () => {
    api.on(
      zoneNginxCustom.put,
      { zoneID: 1 },
      fail(400, 101003, 'Parameter Error', {
        fields: [
          { in: 'body', field: 'value.1.args.0', key: 'nginxArgNotAllowed', message: 'Not an allowed argument' },
        ],
      }),
    );
    const drawer = await openTab('nginx');
    fireEvent.click(await within(drawer).findByText('Custom directives'));
    const custom = await within(drawer).findByRole('form', { name: 'Custom directives' });
    clickButton('Add directive', custom);
    // The second row is the new one.
    const directive = within(custom).getAllByLabelText('Directive')[1] as HTMLElement;
    fireEvent.mouseDown(directive);
    // The list is long and virtual: search narrows it to the option.
    fireEvent.change(directive, { target: { value: 'gzip_ty' } });
    fireEvent.click(await screen.findByText('gzip_types', { selector: '.ant-select-item-option-content' }));
    const args = within(custom).getAllByLabelText('Arguments');
    fireEvent.change(args[1] as HTMLElement, { target: { value: 'text/css  application/json' } });
    clickButton('Save', custom);
    await waitFor(() =>
      expect(api.sent(zoneNginxCustom.put, { zoneID: 1 })[0]?.body).toEqual({
        value: [
          { context: 'http', name: 'gzip', args: ['on'] },
          { context: 'http', name: 'gzip_types', args: ['text/css', 'application/json'] },
        ],
      }),
    );
    expect(await within(custom).findByText('Not an allowed argument')).toBeTruthy();
  });
});

describe("the operator's nginx settings page", () => {
  it('shows the four sections, saves one and resets the custom directives', async () => {
    api.on(OPERATOR_NGINX_SECTION_ROUTES.worker.get, ok({}));
    api.on(OPERATOR_NGINX_SECTION_ROUTES.http.get, ok({ keepaliveTimeoutSeconds: 40 }));
    api.on(OPERATOR_NGINX_SECTION_ROUTES.stream.get, ok({}));
    api.on(OPERATOR_NGINX_SECTION_ROUTES.custom.get, ok([{ context: 'server', name: 'tcp_nodelay', args: ['on'] }]));
    api.on(OPERATOR_NGINX_SECTION_ROUTES.http.put, ok({ keepaliveTimeoutSeconds: 30 }));
    api.on(OPERATOR_NGINX_SECTION_ROUTES.custom.delete, ok([]));
    renderAt('/client/systemManagement/nginxSetting');
    expect(await screen.findByText(/The defaults of every zone's nodes/)).toBeTruthy();
    fireEvent.click(await screen.findByText('HTTP'));
    const http = await screen.findByRole('form', { name: 'HTTP' });
    expect((within(http).getByLabelText('Keep-alive timeout (s)') as HTMLInputElement).value).toBe('40');
    typeInto(http, 'Keep-alive timeout (s)', '30');
    clickButton('Save', http);
    await waitFor(() =>
      expect(api.sent(OPERATOR_NGINX_SECTION_ROUTES.http.put)[0]?.body).toEqual({
        value: { keepaliveTimeoutSeconds: 30 },
      }),
    );

    fireEvent.click(screen.getByText('Custom directives'));
    const custom = await screen.findByRole('form', { name: 'Custom directives' });
    clickButton('Reset to defaults', custom);
    await waitFor(() => expect(api.sent(OPERATOR_NGINX_SECTION_ROUTES.custom.delete)).toHaveLength(1));
    expect(await screen.findByText('REMOVE SUCCESS')).toBeTruthy();
  });
});

describe("a zone's cache preheat", () => {
  const result = (url: string, ok: boolean) => ({
    url,
    ok,
    httpStatus: ok ? 200 : 404,
    cacheStatus: ok ? 'MISS' : null,
    purged: null,
    message: ok ? '200 MISS, 10 bytes in 3 ms' : '404 not cached by a rule, 0 bytes in 1 ms',
  });
  const task = (state: string) => ({
    id: 5,
    kind: 'preheat',
    state,
    urls: ['https://www.shop.example/', 'https://www.shop.example/gone'],
    createdAt: '2026-03-01T10:00:00.000Z',
    nodes: [
      {
        nodeId: 21,
        nodeName: 'edge-tokyo-1',
        commandId: 40,
        status: state === 'running' ? 'sent' : 'succeeded',
        message: state === 'running' ? '' : '1 of 2 URL(s) fetched',
        results:
          state === 'running'
            ? []
            : [result('https://www.shop.example/', true), result('https://www.shop.example/gone', false)],
      },
    ],
  });

  it('checks the URLs, sends them, and shows the task until each node answered with its results', async () => {
    let calls = 0;
    api.on(listZonePreheatTasks, { zoneID: 1 }, () => {
      calls += 1;
      return okPage(calls <= 1 ? [] : calls === 2 ? [task('running')] : [task('partial')]);
    });
    api.on(preheatZoneCaches, { zoneID: 1 }, ok(task('running')));
    const drawer = await openTab('Cache preheat');
    expect(await within(drawer).findByText('No task yet.')).toBeTruthy();

    typeInto(drawer, 'URLs', 'www.shop.example/');
    clickButton('Preheat', drawer);
    expect(await within(drawer).findByText('Line 1: Please enter a valid URL')).toBeTruthy();
    typeInto(drawer, 'URLs', 'https://www.shop.example/\nhttps://www.shop.example/gone');
    clickButton('Preheat', drawer);
    expect(await screen.findByText('Preheat sent to 1 node(s).')).toBeTruthy();
    expect(api.sent(preheatZoneCaches, { zoneID: 1 })[0]?.body).toEqual({
      urls: ['https://www.shop.example/', 'https://www.shop.example/gone'],
    });
    expect(await within(drawer).findByText('Running')).toBeTruthy();
    // Reloaded while the task runs, until it settles.
    expect(await within(drawer).findByText('Partly failed', undefined, { timeout: 5000 })).toBeTruthy();
    const row = within(drawer).getByText('Partly failed').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    expect(await within(drawer).findByText('1 of 2 URL(s) fetched')).toBeTruthy();
    expect(within(drawer).getByText('MISS')).toBeTruthy();
    expect(within(drawer).getByText('404')).toBeTruthy();
  });

  it('shows the refusal of a zone without an enabled node under the URL box', async () => {
    api.on(listZonePreheatTasks, { zoneID: 1 }, okPage([]));
    api.on(
      preheatZoneCaches,
      { zoneID: 1 },
      fail(400, 101003, 'Parameter Error', {
        fields: [
          { in: 'params', field: 'zoneID', key: 'noEnabledNode', message: 'The zone has no enabled node to run this' },
        ],
      }),
    );
    const drawer = await openTab('Cache preheat');
    typeInto(drawer, 'URLs', 'https://www.shop.example/');
    clickButton('Preheat', drawer);
    expect(await screen.findByText(/The zone has no enabled node to run this/)).toBeTruthy();
  });
});

describe("a zone's resources", () => {
  const counts = {
    nodes: 4,
    onlineNodes: 3,
    enabledNodes: 2,
    subNodes: 5,
    groups: 6,
    virtualNodes: 7,
    sites: 8,
    domains: 9,
    sitePorts: 10,
    listenPorts: 11,
  };
  const value = (drawer: HTMLElement, label: string) =>
    within(drawer).getByText(label, { selector: 'th, th *' }).closest('tr')?.querySelector('td')?.textContent;

  it('shows what the zone carries and counts again on Refresh', async () => {
    api.on(getZoneResource, { zoneID: 1 }, ok(counts));
    const drawer = await openTab('Resource');
    expect(await within(drawer).findByText('4 (3 online, 2 switched on)')).toBeTruthy();
    expect(
      ['Sub-nodes', 'Groups', 'Virtual nodes', 'Sites', 'Domains', 'Layer-4 site ports', 'Listen ports'].map((label) =>
        value(drawer, label),
      ),
    ).toEqual(['5', '6', '7', '8', '9', '10', '11']);

    api.on(getZoneResource, { zoneID: 1 }, ok({ ...counts, sites: 12 }));
    clickButton('Refresh', drawer);
    await waitFor(() => expect(value(drawer, 'Sites')).toBe('12'));
    expect(api.sent(getZoneResource, { zoneID: 1 })).toHaveLength(2);
  });

  it('says when the counts could not be loaded and retries', async () => {
    api.on(getZoneResource, { zoneID: 1 }, fail(500, 100001, 'Server Error'));
    const drawer = await openTab('Resource');
    expect(await within(drawer).findByText("The zone's resources could not be loaded.")).toBeTruthy();
    api.on(getZoneResource, { zoneID: 1 }, ok(counts));
    clickButton('Retry', drawer);
    expect(await within(drawer).findByText('4 (3 online, 2 switched on)')).toBeTruthy();
  });
});
