import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { i18n } from '../i18n';
import { takeReplyProblems } from './reply-problems';

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

// jsdom lays nothing out, and its getComputedStyle matches every rule of every stylesheet on each
// call: with the thousand and more rules antd injects, one call took 50–150 ms, and antd asks on
// every popup (a Select took seconds to open). What a test can observe of computed style is whether
// an element is hidden, so the answer here is the element's inline style plus `display: none` or
// `visibility: hidden` when a stylesheet rule that hides matches it (antd hides closed popups by
// class). It also answers for pseudo-elements, which jsdom does not implement.
const hidingRules = { dirty: true, display: [] as string[], visibility: [] as string[] };
const styleChanges = new MutationObserver(() => {});
styleChanges.observe(document, { subtree: true, childList: true, characterData: true });

function isStyleNode(node: Node | null): boolean {
  return node !== null && (node.nodeName === 'STYLE' || node.nodeName === 'LINK' || isStyleNode(node.parentNode));
}

function readHidingRules(): void {
  for (const record of styleChanges.takeRecords()) {
    if (isStyleNode(record.target) || [...record.addedNodes, ...record.removedNodes].some(isStyleNode)) {
      hidingRules.dirty = true;
    }
  }
  if (!hidingRules.dirty) return;
  hidingRules.display = [];
  hidingRules.visibility = [];
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (!(rule instanceof CSSStyleRule)) continue;
      if (rule.style.display === 'none') hidingRules.display.push(rule.selectorText);
      if (rule.style.visibility === 'hidden') hidingRules.visibility.push(rule.selectorText);
    }
  }
  hidingRules.dirty = false;
}

function matchesAny(element: Element, selectors: readonly string[]): boolean {
  return selectors.some((selector) => {
    try {
      return element.matches(selector);
    } catch {
      return false; // a selector jsdom cannot parse
    }
  });
}

window.getComputedStyle = (element: Element) => {
  readHidingRules();
  const style = document.createElement('div').style;
  style.cssText = (element as HTMLElement).style?.cssText ?? '';
  if (!style.display && matchesAny(element, hidingRules.display)) style.display = 'none';
  if (!style.visibility && matchesAny(element, hidingRules.visibility)) style.visibility = 'hidden';
  return style;
};

// Every test starts in English with nothing stored, whatever the test before it chose.
beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('en_US');
});

afterEach(() => {
  cleanup();
  // A handler of the fake API answered with a body its route's schema refuses: the stub is wrong.
  const problems = takeReplyProblems();
  if (problems.length > 0) throw new Error(problems.join('\n'));
});
