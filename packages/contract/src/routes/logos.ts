import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
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

export const listLogos = defineRoute({
  id: 'client.setting.logos.list',
  method: 'GET',
  path: '/client/setting/logos',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary: "The operator's logo sets (none or one), paged",
  tags: ['logos'],
  request: { query: pageQuery },
  response: pageOf(operatorLogoSchema),
});

export const createLogo = defineRoute({
  id: 'client.setting.logo.create',
  method: 'POST',
  path: '/client/setting/logo',
  access: tiers(['client'], 'client.settings.write'),
  codes: [101025],
  bodyType: 'multipart',
  summary: "Creates the operator's logo set from form data (101025 when it has one)",
  tags: ['logos'],
  request: { body: logoFormSchema },
  response: dataOf(operatorLogoSchema),
});

export const updateLogo = defineRoute({
  id: 'client.setting.logo.update',
  method: 'PUT',
  path: '/client/setting/logo',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  bodyType: 'multipart',
  summary: "Changes the operator's logo set from form data: parts sent replace, parts left out stay",
  tags: ['logos'],
  request: { body: logoFormSchema },
  response: dataOf(operatorLogoSchema),
});

export const deleteLogo = defineRoute({
  id: 'client.setting.logo.delete',
  method: 'DELETE',
  path: '/client/setting/logo',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: "Removes the operator's logo set: its login pages show the defaults again",
  tags: ['logos'],
  request: {},
  response: okReply,
});

export const logoRoutes = { listLogos, createLogo, updateLogo, deleteLogo } as const;
