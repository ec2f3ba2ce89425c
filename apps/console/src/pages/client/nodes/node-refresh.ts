import { NODE_LIST_REFRESH_MS } from '@rampart/contract';

/** How often the node lists reload (spec part 1 §9: 5000 ms): they show what agents report. */
export const NODE_LIST_QUERY = { refetchInterval: NODE_LIST_REFRESH_MS } as const;
