import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FitTable, type ListColumns } from './FitTable';
import { actionsColumn } from './RowActions';

interface Row {
  id: number;
  name: string;
  zone: string;
  memo: string;
  createdAt: string;
}

const rows: Row[] = [{ id: 1, name: 'edge-1.example.net', zone: 'Frankfurt', memo: 'spare', createdAt: '2026-01-02' }];

const columns: ListColumns<Row> = [
  { title: 'Name', dataIndex: 'name' },
  { title: 'Zone', dataIndex: 'zone' },
  { title: 'Memo', dataIndex: 'memo', defaultHidden: true },
  { title: 'Created at', dataIndex: 'createdAt', defaultHidden: true },
  actionsColumn<Row>((row) => <button type="button">{`Edit ${row.name}`}</button>),
];

function renderTable(list: ListColumns<Row> = columns) {
  return render(<FitTable<Row> rowKey="id" columns={list} dataSource={rows} pagination={false} />);
}

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

/** The chooser's checkbox of a column; the chooser opens first if it is not open. */
async function choice(name: string) {
  if (screen.queryByRole('tooltip') === null) fireEvent.click(screen.getByRole('button', { name: /Columns/ }));
  const popover = await screen.findByRole('tooltip');
  return within(popover).getByRole('checkbox', { name });
}

// A table rendered in jsdom takes a while when other test files run alongside.
describe('FitTable', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());

  it('shows the default columns and leaves the defaultHidden ones to the chooser', () => {
    renderTable();
    expect(headers()).toEqual(['Name', 'Zone', 'Actions']);
    expect(screen.queryByText('spare')).toBeNull();
    expect(screen.getByText('Frankfurt')).toBeTruthy();
  });

  it('shows a chosen column, hides an unchosen one, and remembers the choice for the list', async () => {
    const { unmount } = renderTable();
    fireEvent.click(await choice('Memo'));
    expect(headers()).toEqual(['Name', 'Zone', 'Memo', 'Actions']);
    expect(screen.getByText('spare')).toBeTruthy();
    fireEvent.click(await choice('Zone'));
    expect(headers()).toEqual(['Name', 'Memo', 'Actions']);
    unmount();

    renderTable();
    expect(headers()).toEqual(['Name', 'Memo', 'Actions']);
    expect((await choice('Memo')).matches(':checked')).toBe(true);
    expect((await choice('Zone')).matches(':checked')).toBe(false);
    fireEvent.click(within(screen.getByRole('tooltip')).getByRole('button', { name: 'Show all' }));
    expect(headers()).toEqual(['Name', 'Zone', 'Memo', 'Created at', 'Actions']);
  });

  it('keeps the name and actions columns: pinned left and right, and not in the choice', async () => {
    const { container } = renderTable();
    const [name, , actions] = screen.getAllByRole('columnheader');
    expect(name?.className).toContain('ant-table-cell-fix-start');
    expect(actions?.className).toContain('ant-table-cell-fix-end');
    expect(container.querySelectorAll('td.ant-table-cell-fix-start')).toHaveLength(1);
    expect(container.querySelectorAll('td.ant-table-cell-fix-end')).toHaveLength(1);
    expect((await choice('Name')).hasAttribute('disabled')).toBe(true);
    expect((await choice('Actions')).hasAttribute('disabled')).toBe(true);
    expect((await choice('Zone')).hasAttribute('disabled')).toBe(false);
  });

  it('keeps a long name to one line with the whole name in its title', () => {
    renderTable();
    const name = screen.getByText('edge-1.example.net');
    expect(name.getAttribute('title')).toBe('edge-1.example.net');
    expect(name.style.whiteSpace).toBe('nowrap');
    expect(name.style.textOverflow).toBe('ellipsis');
  });

  it('has no chooser when every column shows by default', () => {
    renderTable(columns.map(({ defaultHidden: _hidden, ...column }) => column));
    expect(headers()).toEqual(['Name', 'Zone', 'Memo', 'Created at', 'Actions']);
    expect(screen.queryByRole('button', { name: /Columns/ })).toBeNull();
  });
});
