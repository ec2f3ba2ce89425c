import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { App } from '../app/App';
import { i18n, LOCALE_STORAGE_KEY } from '../i18n';
import { NotFoundPage } from '../pages/NotFoundPage';
import { LanguageSwitch } from './LanguageSwitch';

function renderWithSwitch() {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <LanguageSwitch />
            <NotFoundPage />
          </>
        ),
      },
    ],
    { initialEntries: ['/nowhere'] },
  );
  return render(<App router={router} />);
}

describe('LanguageSwitch', () => {
  it('switches the 404 page to 繁體中文 and remembers the choice', async () => {
    renderWithSwitch();
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back home' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Language' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '繁體中文' }));

    expect(await screen.findByText('找不到頁面')).toBeTruthy();
    expect(screen.getByText('抱歉，您造訪的頁面不存在。')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回首頁' })).toBeTruthy();
    expect(screen.queryByText('Page not found')).toBeNull();
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('zh_TW');
    expect(i18n.language).toBe('zh_TW');
    expect(document.documentElement.lang).toBe('zh-TW');
  });

  it('shows the language in use on its button', async () => {
    await i18n.changeLanguage('zh_CN');
    renderWithSwitch();
    expect(await screen.findByRole('button', { name: '语言' })).toBeTruthy();
    expect(screen.getByText('简体中文')).toBeTruthy();
    expect(screen.getByText('页面不存在')).toBeTruthy();
  });
});
