import { SUCCESS_TOAST_TOP } from '@rampart/contract';
import { message } from 'antd';
import { useEffect } from 'react';
import { attachToastSink } from '../app/toast';

/**
 * Draws the app's toasts (app/toast.ts) with antd's message API, in the console frame's context
 * (theme, locale), success toasts SUCCESS_TOAST_TOP px from the top (spec part 1 §9). The hook
 * rather than antd's <App>, which would also load Modal and notification.
 */
export function ToastBridge() {
  const [api, holder] = message.useMessage({ top: SUCCESS_TOAST_TOP });
  useEffect(
    () =>
      attachToastSink({
        open: (kind, text) => {
          void api.open({ type: kind, content: text });
        },
      }),
    [api],
  );
  return holder;
}
