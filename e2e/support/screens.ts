import type { Page, Request, Response } from '@playwright/test';
import type { Locale } from '@rampart/contract';
import * as contract from '@rampart/contract';
import { textLeaves } from '@rampart/contract/testing';
import antdEnUS from 'antd/locale/en_US.js';
import antdZhCN from 'antd/locale/zh_CN.js';
import antdZhTW from 'antd/locale/zh_TW.js';
import { resources } from '../../apps/console/src/i18n/resources/index.js';

/** The code of an expired access token: the console renews its session and calls again (expected). */
const TOKEN_EXPIRED = 101014;

/** Every leaf of a catalogue as [dotted key, text]. */
function leaves(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

const EN = leaves(resources.en_US);

/** The console's own keys as a page would show them untranslated: `ns.key.path`, `key.path` and `ns:key.path`. */
const RAW_KEYS = new Set(
  EN.flatMap(([key]) => {
    const [ns, ...rest] = key.split('.');
    const inNs = rest.join('.');
    return rest.length > 0 ? [key, inNs, `${ns}:${inNs}`] : [key];
  }).filter((key) => key.includes('.') || key.includes(':')),
);

/** A dotted camelCase identifier (`menu.fooBar`, `site.form.originPort`): a key, not a text or a host name. */
const KEY_SHAPE = /^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)*\.[a-z]+[A-Z][a-zA-Z0-9]*$|^[a-z][a-zA-Z]*:[a-z][\w.]*$/;

/** The contract's localized texts (toasts, error and validation messages, permission names, ...) in `locale`. */
function contractTexts(locale: Locale): string[] {
  return textLeaves(contract)
    .filter(([path]) => path.endsWith(`.${locale}`))
    .map(([, text]) => text);
}

/** Every text a page may show in `locale`: the console's catalogue, the contract's and antd's own. */
function textsOf(locale: Locale): string[] {
  const antd = { en_US: antdEnUS, zh_CN: antdZhCN, zh_TW: antdZhTW }[locale];
  return [
    ...leaves(resources[locale]).map(([, text]) => text),
    ...contractTexts(locale),
    ...textLeaves(antd).map(([, text]) => text),
  ];
}

/**
 * English texts that a Chinese page must not show: texts of the console's, the contract's and antd's
 * en_US catalogues with an English word in them that the locale's catalogues do not use as well (a
 * name such as "nginx" or "IPv4" stays Latin in every language).
 */
function englishOnly(locale: Locale): Set<string> {
  const own = new Set(textsOf(locale).map((text) => text.trim()));
  return new Set(
    textsOf('en_US')
      .map((text) => text.trim())
      .filter((text) => /[A-Za-z]{2,}/.test(text) && !text.includes('{') && !own.has(text)),
  );
}

const ENGLISH_ONLY: Partial<Record<Locale, Set<string>>> = {
  zh_CN: englishOnly('zh_CN'),
  zh_TW: englishOnly('zh_TW'),
};

/** Texts of `texts` that are raw keys, or, on a Chinese page, English texts of the catalogue. */
export function untranslated(texts: readonly string[], locale: Locale): string[] {
  const english = ENGLISH_ONLY[locale];
  return [
    ...new Set(texts.filter((text) => RAW_KEYS.has(text) || KEY_SHAPE.test(text) || english?.has(text) === true)),
  ];
}

/** What one view shows: how far it is wider than the window, what sticks out, and its visible texts. */
export interface View {
  /** How far the page is wider than the window (px; 0 when it fits). */
  overflow: number;
  /** What sticks out furthest on the right, when the page is too wide. */
  culprit: string;
  /** Visible tables and cards wider than their box. */
  boxes: string[];
  /** The visible texts, one per text node (inputs' values and hidden parts aside). */
  texts: string[];
}

/**
 * Measures the page as it is laid out now, once the frames after the last change of the window's size
 * have been drawn (tables fit their columns to the width in a resize observer).
 */
export function view(page: Page): Promise<View> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const root = document.scrollingElement ?? document.documentElement;
    const boxes = Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body, .ant-card'))
      .filter((element) => element.offsetParent !== null && element.scrollWidth - element.clientWidth > 1)
      .map((element) => {
        const what = element.classList.contains('ant-card')
          ? `card "${element.querySelector('.ant-card-head-title')?.textContent ?? ''}"`
          : `table "${element.closest('.ant-table-wrapper')?.querySelector('th')?.textContent ?? ''}…"`;
        return `${what} ${element.scrollWidth}px in ${element.clientWidth}px`;
      });
    let culprit = '';
    if (root.scrollWidth > root.clientWidth) {
      let right = root.clientWidth;
      for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        const box = element.getBoundingClientRect();
        if (box.right > right) {
          right = box.right;
          culprit = `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')} "${(element.textContent ?? '').slice(0, 40)}"`;
        }
      }
    }
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, noscript')) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      texts.push(text);
    }
    return { overflow: root.scrollWidth - root.clientWidth, culprit, boxes, texts };
  });
}

/**
 * What went wrong while a page was shown: console errors, page errors, failed requests and API
 * answers of 4xx/5xx (an expired access token, which the console renews, aside).
 */
export class PageWatch {
  private inFlight = new Set<Request>();
  private events: string[] = [];
  private answers: Promise<void>[] = [];
  /** URLs whose 4xx answer was expected (an expired token): their console line is expected too. */
  private expectedUrls = new Set<string>();
  private consoleErrors: { text: string; url: string }[] = [];

  constructor(page: Page) {
    page.on('request', (request) => this.inFlight.add(request));
    page.on('requestfinished', (request) => this.inFlight.delete(request));
    page.on('requestfailed', (request) => {
      this.inFlight.delete(request);
      // A request the console or the browser abandoned (a navigation, a query cancelled) is no failure.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED')
        this.events.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) this.answers.push(this.judge(response));
    });
    page.on('pageerror', (error) => this.events.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push({ text: message.text(), url: message.location().url });
    });
  }

  private async judge(response: Response): Promise<void> {
    const body = (await response.json().catch(() => undefined)) as { code?: number } | undefined;
    if (body?.code === TOKEN_EXPIRED) this.expectedUrls.add(response.url());
    else
      this.events.push(`${response.status()} ${response.request().method()} ${response.url()} ${JSON.stringify(body)}`);
  }

  /** No request is under way. */
  idle(): boolean {
    return this.inFlight.size === 0;
  }

  /** The problems seen since the last call, and forgets them. */
  async take(): Promise<string[]> {
    await Promise.all(this.answers);
    const found = [
      ...this.events,
      ...this.consoleErrors
        .filter((error) => !this.expectedUrls.has(error.url))
        .map((error) => `console error: ${error.text} (${error.url})`),
    ];
    this.events = [];
    this.consoleErrors = [];
    this.answers = [];
    return found;
  }
}
