import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { logoInfoSchema } from './system.js';

/**
 * Operator branding (spec part 2 §7 "Operator settings: logos and announcements"): an operator has
 * one logo set, written with form data (`multipart/form-data`: one file part per image slot, text
 * parts for the texts) and served to its customers' login pages by `GET {auth}/logo?operator=`.
 */

/** The image slots of a logo set, each a file part of the form. */
export const LOGO_IMAGE_SLOTS = ['backgroundImage', 'favicon', 'logo', 'sidebarLogo', 'sidebarSimpleLogo'] as const;
export type LogoImageSlot = (typeof LOGO_IMAGE_SLOTS)[number];

/** Largest accepted file per slot, in bytes. */
export const LOGO_IMAGE_MAX_BYTES: Readonly<Record<LogoImageSlot, number>> = {
  backgroundImage: 2 * 1024 * 1024,
  favicon: 128 * 1024,
  logo: 512 * 1024,
  sidebarLogo: 256 * 1024,
  sidebarSimpleLogo: 256 * 1024,
};

/** Image types accepted, recognised by their magic bytes (SVG is refused: it can carry script). */
export const LOGO_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon'] as const;
export const LOGO_TEXT_MAX = 256;
export const LOGO_DESCRIPTION_MAX = 5000;

/** The operator's logo set; every image a `data:` URL, '' when the slot is empty. */
export const operatorLogoSchema = logoInfoSchema.extend({
  id: z.number().int(),
  /** Login name of the operator: its customers' login pages use `?operator=<this>`. */
  operator: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OperatorLogo = z.infer<typeof operatorLogoSchema>;

/**
 * The text parts of the form. A text part left out keeps its value on PUT; '' puts the default
 * back. `reset` names image slots to empty, comma-separated (e.g. `favicon,logo`).
 */
export const logoFormSchema = z.object({
  title: z.string().max(LOGO_TEXT_MAX).optional(),
  subTitle: z.string().max(LOGO_TEXT_MAX).optional(),
  description: z.string().max(LOGO_DESCRIPTION_MAX).optional(),
  copyright: z.string().max(LOGO_TEXT_MAX).optional(),
  version: z.string().max(LOGO_TEXT_MAX).optional(),
  reset: z.string().max(LOGO_TEXT_MAX).optional(),
});
export type LogoForm = z.infer<typeof logoFormSchema>;

const route = routeFamily({
  tags: ['logos'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const listLogos = route.get('client.setting.logos.list', '/client/setting/logos', {
  summary: "The operator's logo sets (none or one), paged",
  query: pageQuery,
  response: pageOf(operatorLogoSchema),
});

export const createLogo = route.post('client.setting.logo.create', '/client/setting/logo', {
  codes: [101025],
  bodyType: 'multipart',
  summary: "Creates the operator's logo set from form data (101025 when it has one)",
  body: logoFormSchema,
  response: dataOf(operatorLogoSchema),
});

export const updateLogo = route.put('client.setting.logo.update', '/client/setting/logo', {
  bodyType: 'multipart',
  summary: "Changes the operator's logo set from form data: parts sent replace, parts left out stay",
  body: logoFormSchema,
  response: dataOf(operatorLogoSchema),
});

export const deleteLogo = route.delete('client.setting.logo.delete', '/client/setting/logo', {
  summary: "Removes the operator's logo set: its login pages show the defaults again",
  response: okReply,
});

export const logoRoutes = { listLogos, createLogo, updateLogo, deleteLogo } as const;
