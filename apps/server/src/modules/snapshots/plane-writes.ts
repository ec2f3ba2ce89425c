import type { PlaneRepository } from './plane.repository.js';
import type { Rebuild } from './site-entries.js';

/* What a build of plane-entries.ts writes to the dp_* tables, inside its transaction. */

/**
 * Writes the rebuilt entries that differ from the stored ones to dp_entries and dp_changes, and
 * deletes the stored ones a rebuild stands for (its site, or its scope) but did not make.
 */
export async function writeEntries(plane: PlaneRepository, rebuilds: ReadonlyMap<number, Rebuild>): Promise<boolean> {
  const wholeIds = [...rebuilds].filter(([, r]) => r.scope === null).map(([siteId]) => siteId);
  const scoped = [...rebuilds].flatMap(([siteId, r]) =>
    r.scope === null
      ? []
      : [...r.scope].map((id) => {
          const [kind, key] = id.split('\0');
          return { site_id: siteId, kind, key };
        }),
  );
  const stored = [
    ...(wholeIds.length === 0 ? [] : await plane.entriesOfSites(wholeIds)),
    ...(scoped.length === 0 ? [] : await plane.entriesIn(scoped)),
  ];
  const old = new Map(stored.map((r) => [`${r.site_id}\0${r.kind}\0${r.key}`, r.hash]));
  const puts: { site_id: number; kind: string; key: string; hash: string; value: unknown }[] = [];
  const made = new Set<string>();
  for (const [siteId, rebuild] of rebuilds) {
    for (const entry of rebuild.entries) {
      const id = `${siteId}\0${entry.kind}\0${entry.key}`;
      made.add(id);
      if (old.get(id) !== entry.hash) puts.push({ site_id: siteId, ...entry });
    }
  }
  const dels = stored
    .filter((r) => !made.has(`${r.site_id}\0${r.kind}\0${r.key}`))
    .map((r) => ({ site_id: Number(r.site_id), kind: r.kind, key: r.key }));
  if (puts.length === 0 && dels.length === 0) return false;
  if (puts.length > 0) await plane.putEntries(puts);
  if (dels.length > 0) await plane.deleteEntries(dels);
  const changes = [...puts, ...dels.map((d) => ({ ...d, hash: null, value: null }))];
  // The changes logged, the planes serving a changed site changed, and the head moved, at once.
  const sites = [...new Set(changes.map((c) => c.site_id))];
  await plane.logChanges(changes, sites);
  return true;
}

/** Records the sites that joined or left each plane, and its new site set. */
export async function writeMembership(
  plane: PlaneRepository,
  planes: { id: number; sites: number[] }[],
): Promise<boolean> {
  let changed = false;
  for (const one of planes) {
    const recorded = await plane.planeSites(one.id);
    if (!recorded) continue;
    const before = new Set(recorded);
    const after = new Set(one.sites);
    const moves = [
      ...one.sites.filter((s) => !before.has(s)).map((s) => ({ site_id: s, added: true })),
      ...[...before].filter((s) => !after.has(s)).map((s) => ({ site_id: s, added: false })),
    ];
    if (moves.length === 0) continue;
    changed = true;
    await plane.moveMembership(one.id, moves, one.sites);
  }
  return changed;
}
