import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { i18n } from '../i18n';

// A whole console rendered in jsdom takes a while (antd forms, lazy pages), more so while other
// test files run in parallel: findBy* and waitFor wait up to 5 s instead of 1 s.
configure({ asyncUtilTimeout: 5000 });

// antd's responsive helpers (Grid, Flex gap detection, Dropdown placement) call matchMedia.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}

// antd's overflow and virtual-list components observe sizes; jsdom lays nothing out.
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom implements getComputedStyle but not for pseudo-elements, which antd asks about when it
// measures scrollbars; answer with the element's own style instead of a "not implemented" error.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// Every test starts in English with nothing stored, whatever the test before it chose.
beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('en_US');
});

afterEach(() => {
  cleanup();
});
