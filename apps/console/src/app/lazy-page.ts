import { CHUNK_LOAD_TIMEOUT_MS } from '@rampart/contract';
import type { ComponentType } from 'react';

/**
 * A route `lazy` function that loads a page module and hands its component to the router. A
 * chunk that has not arrived after CHUNK_LOAD_TIMEOUT_MS (spec part 1 §9) fails the navigation,
 * so the route's error page (with a reload button) replaces an endless spinner.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('page chunk load timed out')), CHUNK_LOAD_TIMEOUT_MS);
    });
    try {
      return { Component: pick(await Promise.race([load(), timeout])) };
    } finally {
      clearTimeout(timer);
    }
  };
}
