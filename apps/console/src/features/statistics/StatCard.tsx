import { DASHBOARD_CARD_IDS, type StatisticsCard, TRACKED_STATUS_CODES } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Flex, Row, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../i18n';
import { LoadFailed } from './LoadFailed';
import { formatValue, shareOf, type ValueKind } from './stat-format';
import { figureLabel } from './stat-labels';
import { cardQuery } from './statistics-queries';
import type { StatisticsBody } from './use-statistics-filter';
import { useStatisticsTier } from './use-statistics-tier';

type Figure = readonly [key: string, value: number, kind: ValueKind];

const C = DASHBOARD_CARD_IDS;

/** The figures each card shows (spec part 1 §3: request, IP, status, blacklist and block info). */
function figuresOf(card: StatisticsCard): Figure[] {
  switch (card.type) {
    case C.requestInfo:
      return [
        ['requests', card.requests, 'count'],
        ['bytesOut', card.bytesOut, 'bytes'],
        ['hitRatio', shareOf(card.hitRequests, card.requests), 'percent'],
        ['peakBandwidth', card.peakBandwidth, 'bitsPerSecond'],
        ['peakQps', card.peakQps, 'perSecond'],
      ];
    case C.ipInfo:
      return [
        ['uniqueIPs', card.uniqueIPs, 'count'],
        ['countries', card.countries, 'count'],
      ];
    case C.statusInfo:
      return [
        ['s2xx', card.s2xx, 'count'],
        ['s3xx', card.s3xx, 'count'],
        ['s4xx', card.s4xx, 'count'],
        ['s5xx', card.s5xx, 'count'],
      ];
    case C.blacklistInfo:
      return [
        ['blacklisted', card.blacklisted, 'count'],
        ['blacklistedShare', shareOf(card.blacklisted, card.requests), 'percent'],
        ['requests', card.requests, 'count'],
      ];
    default:
      return [
        ['blocked', card.blocked, 'count'],
        ['dropped', card.dropped, 'count'],
        ['blockedShare', shareOf(card.blocked, card.requests), 'percent'],
      ];
  }
}

interface StatCardProps {
  type: number;
  body: StatisticsBody;
  extra?: React.ReactNode;
  style?: React.CSSProperties;
}

/** A statistics card over the filter: its figures in the locale's format and unit. */
export function StatCard({ type, body, extra, style }: StatCardProps) {
  const { t } = useTranslation('statistics');
  const [locale] = useLocale();
  const tier = useStatisticsTier();
  const query = useQuery(cardQuery(tier, body, type));
  const card = query.data?.data;
  return (
    <Card
      title={t(`cards.${type}` as 'cards.3')}
      extra={extra}
      size="small"
      loading={query.isLoading}
      style={style}
      data-testid={`card-${type}`}
    >
      {query.isError || !card ? (
        <LoadFailed onRetry={() => query.refetch()} />
      ) : (
        <Flex vertical gap={8}>
          <Row gutter={[16, 8]}>
            {figuresOf(card).map(([key, value, kind]) => (
              <Col key={key} flex="1 1 120px">
                <Statistic
                  title={figureLabel(t, key)}
                  // Written as formatted: antd would split a number's text at its decimal point.
                  formatter={() => formatValue(value, kind, locale)}
                  data-testid={`figure-${key}`}
                />
              </Col>
            ))}
          </Row>
          {type === C.ipInfo && card.uniqueIPsError > 0 && (
            // The distinct addresses came from the nodes' sketches: an estimate, with its standard error.
            <Typography.Text type="secondary" data-testid="unique-ips-error">
              {t('uniqueIPsError', { error: formatValue(card.uniqueIPsError, 'percent', locale) })}
            </Typography.Text>
          )}
          {type === C.statusInfo && <StatusCodes card={card} />}
          {type === C.requestInfo && card.droppedEvents > 0 && (
            <Alert type="warning" showIcon message={t('droppedEvents', { count: card.droppedEvents })} />
          )}
        </Flex>
      )}
    </Card>
  );
}

/** The tracked status codes (spec part 2 §9) the range answered, each with its count. */
function StatusCodes({ card }: { card: StatisticsCard }) {
  const [locale] = useLocale();
  const codes = [...TRACKED_STATUS_CODES.map(String), 'other'].filter((code) => (card.statusCodes[code] ?? 0) > 0);
  if (codes.length === 0) return null;
  return (
    <Flex gap={4} wrap data-testid="status-codes">
      {codes.map((code) => (
        <Tag key={code}>
          {code}: {formatValue(card.statusCodes[code] ?? 0, 'count', locale)}
        </Tag>
      ))}
    </Flex>
  );
}
