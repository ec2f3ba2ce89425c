import { theme } from 'antd';
import type { ReactNode } from 'react';

/** The heading of a console page. A plain h1 with antd's tokens (Typography would pull in its editing machinery). */
export function PageTitle({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <h1
      style={{
        margin: `0 0 ${token.marginLG}px`,
        fontSize: token.fontSizeHeading3,
        fontWeight: token.fontWeightStrong,
        color: token.colorTextHeading,
      }}
    >
      {children}
    </h1>
  );
}
