import { NODE_LIST_REFRESH_MS } from '@rampart/contract';

/** The monitoring lists reload like the node lists (spec part 1 §9: 5000 ms): they show what the monitors report. */
export const MONITOR_REFRESH = { refetchInterval: NODE_LIST_REFRESH_MS } as const;
