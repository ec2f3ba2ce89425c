import {
  DASHBOARD_WIDGETS_MAX,
  type DashboardWidget,
  DEFAULT_TIME_INTERVAL_HOURS,
  getDefaultDashboard,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Space, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../app/route-query';
import { showApiError } from '../../app/show-error';
import { toastText } from '../../app/toast';
import { PageTitle } from '../../components/PageTitle';
import { flowLayout, readingOrder } from '../../features/statistics/dashboard-layout';
import { StatisticsFilters } from '../../features/statistics/StatisticsFilters';
import { dashboardLayoutRoutes } from '../../features/statistics/statistics-routes';
import { useStatisticsFilter } from '../../features/statistics/use-statistics-filter';
import { useStatisticsTier } from '../../features/statistics/use-statistics-tier';
import { WidgetGrid } from '../../features/statistics/WidgetGrid';
import { callAuthed } from '../../session/call-authed';
import { AddWidget, WidgetControls } from './WidgetEditor';

/**
 * `/{tier}/dataAnalysis/statisticsCustomize`: the caller's own dashboard (`GET {tier}/dashboard`,
 * its tier's default until it saves one), the last three hours at first (spec part 2 §4). In edit
 * mode widgets are added, removed, resized and moved; Save stores the layout (`PUT`), Reset puts
 * the default (`GET dashboard/default`, the tier from the token) in the editor to be saved.
 */
export function StatisticsCustomizePage() {
  const { t } = useTranslation(['statistics', 'shell', 'common']);
  const tier = useStatisticsTier();
  const routes = dashboardLayoutRoutes(tier);
  const filter = useStatisticsFilter(DEFAULT_TIME_INTERVAL_HOURS.statsDashboard);
  const layout = useQuery(routeQuery(tier, routes.get, {}));
  const [draft, setDraft] = useState<DashboardWidget[] | null>(null);
  const [resetting, setResetting] = useState(false);
  const save = useRouteMutation(tier, routes.put, {
    input: (widgets: DashboardWidget[]) => ({ body: { widgets } }),
    invalidates: [routes.get],
    success: () => toastText('updateSuccess'),
    onSuccess: () => setDraft(null),
  });

  const saved = layout.data?.data;
  const editing = draft !== null;
  const widgets = draft ?? (saved ? readingOrder(saved.widgets) : []);

  const reset = async () => {
    setResetting(true);
    try {
      const reply = await callAuthed(tier, getDefaultDashboard, {});
      setDraft(flowLayout(readingOrder(reply.data.widgets)));
    } catch (error) {
      showApiError(error);
    } finally {
      setResetting(false);
    }
  };

  return (
    <>
      <Flex justify="space-between" align="start" wrap gap="small">
        <PageTitle>{t('shell:menu.statisticsCustomize')}</PageTitle>
        {saved && (
          <Space wrap>
            {!saved.saved && !editing && <Tag>{t('customize.usingDefault')}</Tag>}
            {editing ? (
              <>
                <Button onClick={reset} loading={resetting}>
                  {t('customize.reset')}
                </Button>
                <Button onClick={() => setDraft(null)}>{t('customize.cancel')}</Button>
                <Button type="primary" loading={save.isPending} onClick={() => save.mutate(flowLayout(widgets))}>
                  {t('customize.save')}
                </Button>
              </>
            ) : (
              <Button type="primary" onClick={() => setDraft(flowLayout(widgets))}>
                {t('customize.edit')}
              </Button>
            )}
          </Space>
        )}
      </Flex>
      <StatisticsFilters filter={filter} interval={false} />
      {layout.isLoading && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {layout.isError && (
        <Alert
          type="error"
          showIcon
          message={t('customize.failed')}
          action={<Button onClick={() => layout.refetch()}>{t('common:actions.retry')}</Button>}
        />
      )}
      {editing && <AddWidget full={widgets.length >= DASHBOARD_WIDGETS_MAX} widgets={widgets} onChange={setDraft} />}
      {saved && widgets.length === 0 && <Alert type="info" showIcon message={t('customize.empty')} />}
      <WidgetGrid
        widgets={widgets}
        body={filter.body}
        controls={
          editing ? (index) => <WidgetControls widgets={widgets} index={index} onChange={setDraft} /> : undefined
        }
      />
    </>
  );
}
