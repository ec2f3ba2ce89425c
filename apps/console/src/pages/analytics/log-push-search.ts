/** The URL's keys of the page: the tab, then the delivery log's filters. */
export const PAGE_KEYS = ['tab', 'eventID', 'status', 'createdAtStart', 'createdAtEnd', 'ID', 'userID'] as const;
export type PageKey = (typeof PAGE_KEYS)[number];
export const LOG_FILTER_KEYS = ['eventID', 'status', 'createdAtStart', 'createdAtEnd', 'ID', 'userID'] as const;
export type LogFilterKey = (typeof LOG_FILTER_KEYS)[number];
