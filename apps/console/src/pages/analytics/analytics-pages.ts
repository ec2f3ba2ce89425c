/**
 * The dataAnalysis pages as one chunk: the route table imports it from one place, so the first
 * load carries one list of the chunks they need instead of three (see ANALYTICS_PAGES).
 */

export { L4AttackAnalysisPage } from './L4AttackAnalysisPage';
export { LogExportPage } from './LogExportPage';
export { LoggerPage } from './LoggerPage';
export { LogPushPage } from './LogPushPage';
export { SecurityAnalysisPage } from './SecurityAnalysisPage';
export { StatisticsCustomizePage } from './StatisticsCustomizePage';
export { StatisticsPage } from './StatisticsPage';
