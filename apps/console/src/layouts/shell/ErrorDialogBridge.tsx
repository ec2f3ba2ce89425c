import { Modal } from 'antd';
import { useEffect } from 'react';
import { attachErrorDialogSink } from '../../app/error-dialog';

/**
 * Draws the 101009 dialog (app/error-dialog.ts) with antd's modal API in the shell's context
 * (theme, locale of the confirm button): the summary as its title, then each code's message and
 * the targets it concerns.
 */
export function ErrorDialogBridge() {
  const [modal, holder] = Modal.useModal();
  useEffect(
    () =>
      attachErrorDialogSink({
        open: (description) => {
          void modal.error({
            title: description.message,
            content: (
              <ul style={{ paddingInlineStart: 20, margin: 0 }}>
                {(description.details ?? []).map((entry) => (
                  <li key={entry.code}>
                    <strong>{entry.message}</strong>
                    {entry.targets.length > 0 && <div>{entry.targets.join(', ')}</div>}
                  </li>
                ))}
              </ul>
            ),
          });
        },
      }),
    [modal],
  );
  return holder;
}
