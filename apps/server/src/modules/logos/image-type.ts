import type { LOGO_IMAGE_TYPES } from '@rampart/contract';

export type LogoImageType = (typeof LOGO_IMAGE_TYPES)[number];

function startsWith(data: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (data.length < at + bytes.length) return false;
  return bytes.every((b, i) => data[at + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of a file by its magic bytes, never by its name or the type the browser claims;
 * `null` for anything else — SVG included, which can carry script and is not sanitised here.
 */
export function imageTypeOf(data: Uint8Array): LogoImageType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'image/webp';
  // ICONDIR: reserved 0, type 1 (icon), at least one image, and room for its 16-byte entry.
  if (startsWith(data, [0x00, 0x00, 0x01, 0x00]) && data.length >= 22 && (data[4] ?? 0) + (data[5] ?? 0) > 0) {
    return 'image/x-icon';
  }
  return null;
}
