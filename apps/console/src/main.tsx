import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppRouter } from './app/router';
import { i18nReady } from './i18n';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = container;
// Created first, so the route's page chunks load while the language's texts do.
const router = createAppRouter();

function render(): void {
  createRoot(root).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

// The interface language's texts load as a chunk of their own; the first render waits for them
// (a failed load still renders: the route's error page offers a reload).
void i18nReady.then(render, render);
