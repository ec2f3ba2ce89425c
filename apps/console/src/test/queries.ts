import { fireEvent, screen, waitFor, within } from '@testing-library/react';

type Scope = HTMLElement | undefined;

/**
 * The button showing `text`. Found through its text rather than by role: role queries compute
 * accessible names over the whole antd page, which takes seconds in jsdom.
 */
export function buttonByText(text: string | RegExp, scope?: Scope): HTMLButtonElement {
  const label = (scope ? within(scope) : screen).getByText(text, { selector: 'button, button *' });
  const button = label.closest('button');
  if (!button) throw new Error(`no button around ${String(text)}`);
  return button;
}

export function clickButton(text: string | RegExp, scope?: Scope): void {
  fireEvent.click(buttonByText(text, scope));
}

/** The on/off switch of the firewall rule whose pattern is `pattern`, in `scope` (a row or a list). */
export function ruleSwitch(scope: HTMLElement, pattern: string): HTMLButtonElement {
  return within(scope).getByLabelText(`Rule ${pattern} on`) as HTMLButtonElement;
}

/**
 * The table row holding `text`. Waits longer than other queries: the first page of a test file
 * loads its code and antd's while other files run.
 */
export async function findRow(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, undefined, { timeout: 10_000 });
  const row = cell.closest('tr');
  if (!row) throw new Error(`${text} is not in a table row`);
  return row;
}

/** The open antd dialog (the last one opened), once it has appeared. */
export async function findModal(): Promise<HTMLElement> {
  await screen.findAllByText((_, element) => element?.classList.contains('ant-modal-title') ?? false);
  const modals = document.querySelectorAll<HTMLElement>('.ant-modal');
  const last = modals[modals.length - 1];
  if (!last) throw new Error('no dialog');
  return last;
}

/**
 * Waits until `modal` (from findModal) has been closed: gone, hidden, or leaving (jsdom never ends
 * antd's leave animation). A user cannot reach the page behind an open dialog, so a test that goes
 * on to the next action waits for this too; otherwise the next dialog can open before the last one
 * closed and start from its values.
 */
export async function modalClosed(modal: HTMLElement): Promise<void> {
  await waitFor(() => {
    const hidden = modal.closest<HTMLElement>('.ant-modal-wrap')?.style.display === 'none';
    if (modal.isConnected && !hidden && !modal.classList.contains('ant-zoom-leave')) {
      throw new Error('the dialog is still open');
    }
  });
}

/** Types into the field labelled `label` inside `scope`. */
export function typeInto(scope: HTMLElement, label: string, value: string): void {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
}

/** Opens the antd Select labelled `field` inside `scope` and clicks its option `label`. */
export async function chooseOption(scope: HTMLElement, field: string, label: string): Promise<void> {
  fireEvent.mouseDown(within(scope).getByLabelText(field));
  fireEvent.click(await screen.findByText(label, { selector: '.ant-select-item-option-content' }));
}

/** Ticks the selection box of each table row holding one of `names`. */
export async function selectRows(names: readonly string[]): Promise<void> {
  for (const name of names) {
    fireEvent.click((await findRow(name)).querySelector('input[type="checkbox"]') as HTMLInputElement);
  }
}

/** The antd confirmation popover asking `question`, once it has appeared. */
export async function findPopconfirm(question: string | RegExp): Promise<HTMLElement> {
  const popover = (await screen.findByText(question)).closest<HTMLElement>('.ant-popover');
  if (!popover) throw new Error(`${String(question)} is not in a popover`);
  return popover;
}

/** The antd message dialog (Modal.error and its kin) titled `title`, once it has appeared. */
export async function findMessageDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-confirm-title' });
  const dialog = heading.closest<HTMLElement>('.ant-modal');
  if (!dialog) throw new Error(`${title} is not a dialog title`);
  return dialog;
}

/**
 * Shows every column of a list (its column chooser's "Show all"), for a test that reads a column the
 * list leaves out by default; `nth` picks the list when the page has more than one chooser.
 */
export async function showAllColumns(nth = 0): Promise<void> {
  const labels = await screen.findAllByText('Columns', { selector: 'button, button *' }, { timeout: 10_000 });
  const chooser = labels[nth]?.closest('button');
  if (!chooser) throw new Error(`no column chooser #${nth}`);
  fireEvent.click(chooser);
  const showAll = await screen.findAllByText('Show all', { selector: 'button, button *' });
  const last = showAll[showAll.length - 1]?.closest('button');
  if (!last) throw new Error('no "Show all" in the column chooser');
  fireEvent.click(last);
  fireEvent.click(chooser);
}
