import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E } from './env.js';

function decode(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Waits for a mail to `to` newer than the ones already seen, and returns its decoded text. */
export async function nextMail(to: string, seen: number, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = readdirSync(E2E.mailDir)
      .filter((f) => f.includes(to))
      .sort();
    if (files.length > seen)
      return decode(readFileSync(path.join(E2E.mailDir, files[files.length - 1] as string), 'utf8'));
    if (Date.now() > deadline) throw new Error(`no new mail to ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function mailCount(to: string): number {
  return readdirSync(E2E.mailDir).filter((f) => f.includes(to)).length;
}
