import { virtualNodeRoutes } from '@rampart/contract';

/** What a record change makes stale: the records and the record counts of the list. */
export const RECORD_INVALIDATES = [virtualNodeRoutes.listVirtualNodeRecords, virtualNodeRoutes.listVirtualNodes];
