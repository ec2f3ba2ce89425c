import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileBlobStore } from '../../platform/files/file-blobs.js';
import type { DatabaseSlot, GeoDatabaseService } from './geo-database.service.js';

const SLOTS: readonly DatabaseSlot[] = ['geo', 'asn'];

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/**
 * Moves the MaxMind databases an earlier version kept in one control plane's data directory
 * (`<data dir>/<slot>/<operator id>/<sha256>.mmdb`) into the config store's blobs, at start-up:
 * each control plane imports what its own DATA_DIR holds. A file that is the operator's current
 * one is stored (checked against the hash its name gives) and then removed; a file no record names
 * any longer is removed. Once moved, nothing is left to import at the next start. A file that
 * cannot be stored is left where it is and reported.
 */
export async function importLegacyGeoFiles(
  geo: GeoDatabaseService,
  blobs: FileBlobStore,
  dataDir: string,
  report: (error: unknown, file: string) => void,
): Promise<number> {
  let imported = 0;
  for (const slot of SLOTS) {
    const slotDir = path.join(dataDir, slot);
    for (const operator of await names(slotDir)) {
      if (!/^\d+$/.test(operator)) continue;
      const operatorId = Number(operator);
      const dir = path.join(slotDir, operator);
      for (const name of await names(dir)) {
        const file = path.join(dir, name);
        const sha256 = /^([0-9a-f]{64})\.mmdb$/.exec(name)?.[1];
        if (sha256 === undefined) {
          // A temporary file of an upload that stopped.
          if (name.endsWith('.tmp')) await rm(file, { force: true });
          continue;
        }
        try {
          const current = await geo.get(slot, operatorId);
          if (current?.sha256 === sha256 && (await blobs.refOf(slot, operator)) !== sha256) {
            await blobs.put({ file }, { kind: slot, ref: operator, ownerId: operatorId }, sha256);
            imported += 1;
          }
          await rm(file, { force: true });
        } catch (error) {
          report(error, file);
        }
      }
      await rmdir(dir).catch(() => undefined);
    }
    await rmdir(slotDir).catch(() => undefined);
  }
  return imported;
}
