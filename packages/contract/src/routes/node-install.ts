import { z } from 'zod';
import {
  RELEASE_LIMITS,
  releaseManifestSchema,
  releasePathSchema,
  releaseVersionSchema,
} from '../edge/agent-release.js';
import { dataOf, defineRoute, publicAccess } from '../route.js';

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

export const getNodeInstallRelease = defineRoute({
  id: 'edge.install.release',
  api: 'edge',
  method: 'GET',
  path: '/install/release',
  access: publicAccess,
  codes: [202008],
  summary:
    'The manifest of the agent release the control plane serves, for machines that have not joined yet (same as edge.release); 202008 when it has none',
  tags: ['edge'],
  request: {},
  response: dataOf(releaseManifestSchema),
});

export const getNodeInstallReleaseFile = defineRoute({
  id: 'edge.install.releaseFile',
  api: 'edge',
  method: 'GET',
  path: '/install/release/file',
  access: publicAccess,
  codes: [101018],
  summary:
    'One file of the served release for machines that have not joined yet (application/octet-stream); 101018 for a version or path the manifest does not list',
  tags: ['edge'],
  request: { query: z.object({ version: releaseVersionSchema, path: releasePathSchema }) },
  response: z.string().max(RELEASE_LIMITS.fileBytes),
  reply: 'raw',
});

export const nodeInstallRoutes = {
  getNodeInstallScript,
  getNodeInstallRelease,
  getNodeInstallReleaseFile,
} as const;
