import { nodeInstallRoutes as routes } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AgentReleases } from './agent-releases.js';
import type { InstallScript } from './install-script.js';

/**
 * What a machine that has not joined yet downloads to install the agent: the install script and the
 * release of the control plane's version (the same manifest and files the signed upgrade routes
 * serve). Public, because the machine has nothing to sign with yet; nothing here is a secret, and
 * each answer is revalidated (`no-cache`) so a rebuilt release is never taken from a stale cache.
 */
export function bindNodeInstallRoutes(binder: Binder, releases: AgentReleases, script: InstallScript): void {
  binder.bind(routes.getNodeInstallScript, async (_input, { reply }) => {
    const text = await script.text();
    if (text === null) throw new AppError(202008, { extra: { reason: 'no agent package to install from' } });
    reply.header('cache-control', 'no-cache').type('text/x-shellscript; charset=utf-8').send(text);
    return '';
  });
  binder.bind(routes.getNodeInstallRelease, async (_input, { reply }) => {
    const manifest = await releases.manifest();
    if (!manifest) throw new AppError(202008, { extra: { reason: 'no agent release of this version to serve' } });
    reply.header('cache-control', 'no-cache');
    return { data: manifest };
  });
  binder.bind(routes.getNodeInstallReleaseFile, async ({ query }, { reply }) => {
    const bytes = await releases.file(query.version, query.path);
    if (!bytes) throw new AppError(101018);
    reply.header('cache-control', 'no-cache').type('application/octet-stream').send(bytes);
    return '';
  });
}
