import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo } from '../validators/zod.js';

/**
 * Traffic packages (spec part 2 §7 "Traffic"; docs/decisions.md "Traffic packages"): the operator
 * sells a customer's site extra traffic for one month on top of its product's monthly allowance;
 * the monthly usage shows, per site, the month's bytes served against that allowance and whether
 * the site is restricted for going over it.
 */

/** Largest amount of one plan, in bytes (1 PB; part 1 §9 counts traffic in decimal units). */
export const TRAFFIC_PLAN_BYTES_MAX = 1_000_000_000_000_000;
/** Years a plan or a report may name. */
export const TRAFFIC_YEAR_MIN = 2000;
export const TRAFFIC_YEAR_MAX = 2100;

/** How a site over its allowance is restricted (the product says): its domains answered as disabled, or slowed. */
export const TRAFFIC_RESTRICTIONS = ['pause', 'throttle'] as const;
export type TrafficRestriction = (typeof TRAFFIC_RESTRICTIONS)[number];
export const trafficRestrictionSchema = z.enum(TRAFFIC_RESTRICTIONS, { message: 'invalidValue' });

const zYear = z.coerce.number().int().min(TRAFFIC_YEAR_MIN).max(TRAFFIC_YEAR_MAX);
const zMonth = z.coerce.number().int().min(1).max(12);

export const extraTrafficPlanSchema = z.object({
  id: z.number().int(),
  userID: z.number().int(),
  userName: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  productID: z.number().int(),
  productName: z.string(),
  /** Extra bytes for the month. */
  bytes: z.number().int(),
  year: z.number().int(),
  month: z.number().int(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExtraTrafficPlan = z.infer<typeof extraTrafficPlanSchema>;

const planBody = z.object({
  siteID: zId,
  bytes: z.number().int().min(1).max(TRAFFIC_PLAN_BYTES_MAX),
  year: zYear,
  month: zMonth,
  memo: zMemo,
});
export type ExtraTrafficPlanIn = z.output<typeof planBody>;

const planListQuery = pageQuery.extend({
  userID: zIdParam.optional(),
  productName: z.string().max(64).optional(),
  year: zYear.optional(),
  month: zMonth.optional(),
});
export type ExtraTrafficPlanQuery = z.output<typeof planListQuery>;

/** One site's month: what it served, what it may serve, and its restriction. */
export const monthlyUsageSchema = z.object({
  year: z.number().int(),
  month: z.number().int(),
  userID: z.number().int(),
  userName: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  productID: z.number().int(),
  productName: z.string(),
  /** Bytes served in the month (the analytics store's bytes out). */
  used: z.number().int(),
  /** The product's monthly allowance in bytes; 0 = unlimited. */
  planBytes: z.number().int(),
  /** The extra plans' bytes for the month. */
  extraBytes: z.number().int(),
  /** planBytes + extraBytes, or null when unlimited. */
  allowance: z.number().int().nullable(),
  /** What is left of the allowance (never below 0), or null when unlimited. */
  left: z.number().int().nullable(),
  /** The site's restriction now (not per month), or null. */
  restriction: trafficRestrictionSchema.nullable(),
});
export type MonthlyUsage = z.infer<typeof monthlyUsageSchema>;

const usageQuery = pageQuery.extend({ year: zYear.optional(), month: zMonth.optional() });
const clientUsageQuery = usageQuery.extend({ userID: zIdParam.optional() });
export type MonthlyUsageQuery = z.output<typeof clientUsageQuery>;

const route = routeFamily({
  tags: ['traffic'],
  read: tiers(['client'], 'client.traffic.read'),
  write: tiers(['client'], 'client.traffic.write'),
});

export const listClientTrafficPlans = route.get('client.traffic.plans.list', '/client/extraTrafficPlans', {
  summary: "The extra traffic plans of the operator's customers, newest first, paged",
  query: planListQuery,
  response: pageOf(extraTrafficPlanSchema),
});

export const createTrafficPlan = route.post('client.traffic.plan.create', '/client/extraTrafficPlan', {
  summary: "Sells a customer's site extra traffic for a month (may lift its restriction)",
  body: planBody,
  response: dataOf(extraTrafficPlanSchema),
});

export const updateTrafficPlan = route.put('client.traffic.plan.update', '/client/extraTrafficPlan', {
  summary: 'Changes an extra traffic plan',
  body: planBody.extend({ id: zId }),
  response: dataOf(extraTrafficPlanSchema),
});

export const deleteTrafficPlans = route.delete('client.traffic.plans.delete', '/client/extraTrafficPlans', {
  summary: 'Deletes extra traffic plans (all or none)',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const listClientMonthlyUsages = route.get('client.traffic.monthlyUsages', '/client/traffic/monthlyUsages', {
  summary: "A month's traffic of the operator's customers' sites against their allowance (default: this month, UTC)",
  query: clientUsageQuery,
  response: pageOf(monthlyUsageSchema),
});

export const liftTrafficRestriction = route.patch('client.sites.traffic.lift', '/client/site/trafficRestriction', {
  access: tiers(['client'], 'client.sites.write'),
  summary: 'Lifts the traffic restriction of sites (all or none); they are not restricted again this month',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const listUserTrafficPlans = route.get('user.traffic.plans.list', '/user/extraTrafficPlans', {
  access: tiers(['user'], 'user.traffic.read'),
  summary: "The caller's extra traffic plans, newest first, paged",
  query: pageQuery.extend({ productName: z.string().max(64).optional() }),
  response: pageOf(extraTrafficPlanSchema),
});

export const listUserMonthlyUsages = route.get('user.traffic.monthlyUsages', '/user/traffic/monthlyUsages', {
  access: tiers(['user'], 'user.traffic.read'),
  summary: "A month's traffic of the caller's sites against their allowance (default: this month, UTC)",
  query: usageQuery,
  response: pageOf(monthlyUsageSchema),
});

export const trafficRoutes = {
  listClientTrafficPlans,
  createTrafficPlan,
  updateTrafficPlan,
  deleteTrafficPlans,
  listClientMonthlyUsages,
  liftTrafficRestriction,
  listUserTrafficPlans,
  listUserMonthlyUsages,
} as const;
