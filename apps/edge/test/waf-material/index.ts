import { cve } from './cve.js';
import { graphql } from './graphql.js';
import { ldap } from './ldap.js';
import { nosql } from './nosql.js';
import { phpVars, shellProse, ssrfSchemes } from './prose.js';
import { redirect } from './redirect.js';
import { traversal } from './traversal.js';
import type { Material } from './types.js';

/**
 * Test material per category, generated from public descriptions of the techniques (each
 * generator names its sources): attacks in every encoding and part of a request, and benign
 * values of the same shapes. Used by waf-material.test.ts (and reported by it per category).
 */
export const MATERIAL: Record<string, Material> = {
  traversal,
  nosql,
  ldap,
  redirect,
  graphql,
  cve,
  'php-vars': phpVars,
  'shell-prose': shellProse,
  'ssrf-schemes': ssrfSchemes,
};
export type { Material, MaterialCase, MaterialRequest } from './types.js';
