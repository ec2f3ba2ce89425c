import { LOGO_IMAGE_SLOTS, type LogoImageSlot, type OperatorLogo } from '@rampart/contract';
import type { LogoImageRow, LogoRow } from './logos.repository.js';

export function isSlot(name: string): name is LogoImageSlot {
  return (LOGO_IMAGE_SLOTS as readonly string[]).includes(name);
}

function dataUrl(image: LogoImageRow | undefined): string {
  return image ? `data:${image.mime};base64,${image.data.toString('base64')}` : '';
}

function emptyImages(): Record<LogoImageSlot, string> {
  return { backgroundImage: '', favicon: '', logo: '', sidebarLogo: '', sidebarSimpleLogo: '' };
}

/** The images of the logo set `row` among `images`, each slot a data URL ('' when empty). */
export function imagesOf(row: LogoRow, images: LogoImageRow[]): Record<LogoImageSlot, string> {
  const out = emptyImages();
  for (const image of images) if (image.logoId === row.id && isSlot(image.slot)) out[image.slot] = dataUrl(image);
  return out;
}

/** A logo set of the operator named `operator`, its images among `images`. */
export function presentLogo(row: LogoRow, operator: string, images: LogoImageRow[]): OperatorLogo {
  return {
    id: row.id,
    operator,
    title: row.title,
    subTitle: row.subTitle,
    description: row.description,
    copyright: row.copyright,
    version: row.version,
    ...imagesOf(row, images),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
