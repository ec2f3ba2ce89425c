import { TIERS, type Tier } from '@rampart/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useMatches } from 'react-router';
import { type ConsoleHandle, TierContext } from '../app/tier-context';
import { whenToastWaits } from '../app/toast';
import { useBranding } from '../features/branding/use-branding';
import { sessionQueryKey, useSessionGeneration } from '../session';

const ToastBridge = lazy(() => import('./ToastBridge').then((m) => ({ default: m.ToastBridge })));

function isConsoleHandle(handle: unknown): handle is ConsoleHandle {
  return (
    typeof handle === 'object' &&
    handle !== null &&
    (TIERS as readonly unknown[]).includes((handle as { tier?: unknown }).tier)
  );
}

/**
 * The frame of one console (/user, /client, /admin), around its login pages and its shell alike:
 * which console this is, where toasts are drawn (success toasts SUCCESS_TOAST_TOP px from the
 * top, spec part 1 §9), the branded title and favicon, and the per-session data cache.
 */
export function ConsoleFrame() {
  const handle = useMatches().find((match) => isConsoleHandle(match.handle))?.handle;
  if (!isConsoleHandle(handle)) throw new Error('ConsoleFrame outside a console route');
  const { tier } = handle;
  return (
    <TierContext value={tier}>
      <Toasts />
      <DocumentBranding tier={tier} />
      <SessionCacheGuard tier={tier} />
      <Outlet />
    </TierContext>
  );
}

/**
 * Draws the app's toasts once the first one is raised: antd's message code (ToastBridge) loads
 * then, not with every login page; the toast waits in app/toast.ts meanwhile.
 */
function Toasts() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => (wanted ? undefined : whenToastWaits(() => setWanted(true))), [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastBridge />
    </Suspense>
  );
}

/** The browser tab shows the console's branded title and favicon. */
function DocumentBranding({ tier }: { tier: Tier }) {
  const { title, favicon } = useBranding(tier);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    if (!favicon) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.append(link);
    }
    link.href = favicon;
  }, [favicon]);
  return null;
}

/** Drops the cached data of the account whenever the console's session starts or ends. */
function SessionCacheGuard({ tier }: { tier: Tier }) {
  const generation = useSessionGeneration(tier);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (generation > 0) queryClient.removeQueries({ queryKey: sessionQueryKey(tier) });
  }, [generation, queryClient, tier]);
  return null;
}
