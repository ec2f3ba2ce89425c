import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type DashboardWidget, STATISTICS_CARDS, STATISTICS_SERIES_TYPES, STATISTICS_TOP_IDS } from '@rampart/contract';
import { Button, Flex, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addWidget,
  moveWidget,
  removeWidget,
  resizeWidget,
  WIDGET_HEIGHTS,
  WIDGET_WIDTHS,
  type WidgetKind,
} from '../../features/statistics/dashboard-layout';

interface EditProps {
  widgets: readonly DashboardWidget[];
  onChange: (widgets: DashboardWidget[]) => void;
}

/** The name of a widget: its card, top list or series title. */
export function useWidgetName() {
  const { t } = useTranslation('statistics');
  return (kind: WidgetKind, type: number) =>
    kind === 'card'
      ? t(`cards.${type}` as 'cards.3')
      : kind === 'top'
        ? t(`tops.${type}` as 'tops.19')
        : t(`series.${type}` as 'series.1');
}

/** Picks a card, top list or series and adds it at the end of the layout. */
export function AddWidget({ widgets, onChange, full }: EditProps & { full: boolean }) {
  const { t } = useTranslation('statistics');
  const name = useWidgetName();
  const [choice, setChoice] = useState<string | undefined>(undefined);
  const group = (kind: WidgetKind, types: readonly number[]) => ({
    label: t(`customize.kinds.${kind}`),
    options: types.map((type) => ({ value: `${kind}:${type}`, label: name(kind, type) })),
  });
  const add = () => {
    if (!choice) return;
    const [kind, type] = choice.split(':') as [WidgetKind, string];
    onChange(addWidget(widgets, kind, Number(type)));
    setChoice(undefined);
  };
  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <Select
        aria-label={t('customize.widget')}
        placeholder={t('customize.widget')}
        style={{ width: 260 }}
        value={choice}
        onChange={setChoice}
        // A few dozen choices in groups: all drawn, so the list scrolls as one.
        virtual={false}
        showSearch={{ optionFilterProp: 'label' }}
        options={[
          group('card', STATISTICS_CARDS),
          group('series', STATISTICS_SERIES_TYPES),
          group('top', STATISTICS_TOP_IDS),
        ]}
      />
      <Button icon={<PlusOutlined />} disabled={!choice || full} onClick={add}>
        {t('customize.add')}
      </Button>
    </Flex>
  );
}

/** A widget's size choices, its moves and its removal, in its title bar. */
export function WidgetControls({ widgets, index, onChange }: EditProps & { index: number }) {
  const { t } = useTranslation('statistics');
  const widget = widgets[index];
  if (!widget) return null;
  return (
    <Space size={4} wrap>
      <Select
        size="small"
        aria-label={t('customize.width')}
        value={widget.w}
        options={WIDGET_WIDTHS.map((w) => ({ value: w, label: t('customize.columns', { count: w }) }))}
        onChange={(w: number) => onChange(resizeWidget(widgets, index, { w }))}
        style={{ width: 100 }}
      />
      <Select
        size="small"
        aria-label={t('customize.height')}
        value={widget.h}
        options={WIDGET_HEIGHTS.map((h) => ({ value: h, label: t('customize.rows', { count: h }) }))}
        onChange={(h: number) => onChange(resizeWidget(widgets, index, { h }))}
        style={{ width: 90 }}
      />
      <Button
        size="small"
        icon={<ArrowUpOutlined />}
        aria-label={t('customize.moveUp')}
        disabled={index === 0}
        onClick={() => onChange(moveWidget(widgets, index, -1))}
      />
      <Button
        size="small"
        icon={<ArrowDownOutlined />}
        aria-label={t('customize.moveDown')}
        disabled={index === widgets.length - 1}
        onClick={() => onChange(moveWidget(widgets, index, 1))}
      />
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('customize.remove')}
        onClick={() => onChange(removeWidget(widgets, index))}
      />
    </Space>
  );
}
