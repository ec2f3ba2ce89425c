import { describe, expect, it } from 'vitest';
import { bindFailures, listenedPorts } from './port-check.js';

describe('ports in an nginx.conf and in its errors', () => {
  it('reads every listen of a rendered config as protocol/port (the running nginx holds them)', () => {
    const conf = [
      '    listen 127.0.0.1:18080 default_server;',
      '    listen [::1]:18443 ssl http2 default_server;',
      '    listen 80;',
      '    listen 127.0.0.1:5000 udp;',
      '    listen 5001 udp;',
      '# listen 9999;',
    ].join('\n');
    expect([...listenedPorts(conf)].sort()).toEqual(['tcp/18080', 'tcp/18443', 'tcp/80', 'udp/5000', 'udp/5001']);
  });

  it("finds the port of nginx's bind errors, IPv4 and IPv6", () => {
    expect(
      bindFailures([
        '2026/01/01 00:00:00 [emerg] 12#12: bind() to 0.0.0.0:22 failed (98: Address already in use)',
        '2026/01/01 00:00:00 [emerg] 12#12: bind() to [::]:53 failed (13: Permission denied)',
        '2026/01/01 00:00:00 [emerg] 12#12: unknown directive "x" in /etc/nginx.conf:3',
      ]),
    ).toEqual([
      { localPort: 22, error: '98: Address already in use' },
      { localPort: 53, error: '13: Permission denied' },
    ]);
  });
});
