import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { type ReactNode, useState } from 'react';
import { flushSync } from 'react-dom';
import { I18nextProvider } from 'react-i18next';
import { type DataRouter, RouterProvider } from 'react-router';
import { antdLocale, i18n, useLocale } from '../i18n';
import { createQueryClient } from './query-client';

interface AppProps {
  router: DataRouter;
}

/** The providers every console shares, around the router. */
export function App({ router }: AppProps) {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LocalizedAntd>
          {/* react-router/dom's RouterProvider is this one with flushSync passed in; importing it
              directly keeps one copy of react-router when tests load packages through Node,
              where react-router/dom would load a second copy with its own contexts. */}
          <RouterProvider router={router} flushSync={syncUpdate} />
        </LocalizedAntd>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

function syncUpdate(update: () => unknown): undefined {
  flushSync(update);
}

/**
 * antd's own texts follow the interface language (loaded with it, see i18n/i18n.ts). antd's <App> (context for message, modal and
 * notification) is left to the console layouts: it would put those components in the first load.
 */
function LocalizedAntd({ children }: { children: ReactNode }) {
  const [locale] = useLocale();
  return <ConfigProvider locale={antdLocale(locale)}>{children}</ConfigProvider>;
}
