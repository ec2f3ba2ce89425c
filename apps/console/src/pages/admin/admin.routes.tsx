import { Navigate, type RouteObject } from 'react-router';

/** The admin (vendor) console, /admin. */
export const adminRoutes: RouteObject = {
  path: 'admin',
  children: [
    // The login form and the dashboard are added here by later tasks; until then the console's
    // root goes to the start page.
    { index: true, element: <Navigate to="/" replace /> },
  ],
};
