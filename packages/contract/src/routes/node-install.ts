import { z } from 'zod';
import {
  RELEASE_LIMITS,
  releaseManifestSchema,
  releasePathSchema,
  releaseVersionSchema,
} from '../edge/agent-release.js';
import { dataOf, defineRoute, publicAccess } from '../route.js';
import { routeFamily } from '../route-family.js';

/**
 * Installing a node: the control plane serves an install script and the agent release of its own
 * version to machines that have not joined yet, so the operator's "Join a node" line
 * (`curl -fsSL <cp>/api/edge/v1/install.sh | sudo RAMPART_JOIN_TOKEN=jt_… sh -s -- --control-plane <cp>`)
 * runs on a fresh Debian machine as printed. None of these answers holds a secret: the join token
 * travels only in the operator's command line and then in the node's registration. The signed
 * release routes of node-upgrade.ts stay as they are for joined nodes. See docs/decisions.md
 * "Installing a node".
 */

/** Path of the install script under the node API, for the lines the console prints. */
export const NODE_INSTALL_SCRIPT_PATH = '/install.sh';

export const getNodeInstallScript = defineRoute({
  id: 'edge.installScript',
  api: 'edge',
  method: 'GET',
  path: NODE_INSTALL_SCRIPT_PATH,
  access: publicAccess,
  codes: [202008],
  summary:
    'The node install script (text/x-shellscript, no secret in it): installs the Debian packages, downloads and checks the agent release of this version, installs it and starts it as a systemd service; 202008 when this control plane has no agent package to install',
  tags: ['edge'],
  request: {},
  response: z.string(),
  reply: 'raw',
});

const route = routeFamily({ tags: ['edge'], read: publicAccess });

export const getNodeInstallRelease = route.get('edge.install.release', '/install/release', {
  api: 'edge',
  codes: [202008],
  summary:
    'The manifest of the agent release the control plane serves, for machines that have not joined yet (same as edge.release); 202008 when it has none',
  response: dataOf(releaseManifestSchema),
});

export const getNodeInstallReleaseFile = route.get('edge.install.releaseFile', '/install/release/file', {
  api: 'edge',
  codes: [101018],
  summary:
    'One file of the served release for machines that have not joined yet (application/octet-stream); 101018 for a version or path the manifest does not list',
  query: z.object({ version: releaseVersionSchema, path: releasePathSchema }),
  response: z.string().max(RELEASE_LIMITS.fileBytes),
  reply: 'raw',
});

export const nodeInstallRoutes = {
  getNodeInstallScript,
  getNodeInstallRelease,
  getNodeInstallReleaseFile,
} as const;
