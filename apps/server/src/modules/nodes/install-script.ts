import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The line of install-node.sh that stands for setup-node.sh, inside a quoted here-document. */
const SETUP_PLACEHOLDER = '@SETUP_NODE_SH@';
/** The here-document's terminator: setup-node.sh must not hold it as a line of its own. */
const HEREDOC_END = 'RAMPART_SETUP_NODE_SH';

/**
 * The node install script served at `GET /api/edge/v1/install.sh`: the agent package's
 * `scripts/install-node.sh` (`RAMPART_AGENT_RELEASE_DIR`, by default apps/edge) with its
 * `scripts/setup-node.sh` put in, so a node needs this one download and the package list has one
 * source. Read on each call, like the release, so an edited script is served at once. It holds no
 * secret and nothing of the caller: every machine gets the same bytes.
 */
export class InstallScript {
  constructor(private readonly dir: string | null) {}

  /** The script, or null when the agent package has no scripts (a release directory without them). */
  async text(): Promise<string | null> {
    if (this.dir === null) return null;
    let install: string;
    let setup: string;
    try {
      install = await readFile(path.join(this.dir, 'scripts/install-node.sh'), 'utf8');
      setup = await readFile(path.join(this.dir, 'scripts/setup-node.sh'), 'utf8');
    } catch {
      return null;
    }
    const lines = install.split('\n');
    const at = lines.indexOf(SETUP_PLACEHOLDER);
    if (at < 0 || setup.split('\n').includes(HEREDOC_END)) return null;
    lines.splice(at, 1, setup.replace(/\n$/, ''));
    return lines.join('\n');
  }
}
