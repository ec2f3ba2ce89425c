import { Navigate, type RouteObject } from 'react-router';
import { apiDocRoute } from '../../app/api-doc-route';

/** The client (operator) console, /client. */
export const clientRoutes: RouteObject = {
  path: 'client',
  children: [
    // The login form and the dashboard (the spec's root redirect target) are added here by later
    // tasks; until then the console's root goes to the start page.
    { index: true, element: <Navigate to="/" replace /> },
    apiDocRoute(),
  ],
};
