import { useRoutes, type RouteObject } from '@ticketing/shared/router';
import { Layout } from './layout/Layout.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { RemotePage } from './remote/RemotePage.tsx';
import { RequireRole } from './RequireRole.tsx';
import { PAGE_ROUTES } from './routes.ts';

/** The site's routes, the same in the browser and on the server, so a server-rendered page hydrates as it is. */
const routeTree: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...PAGE_ROUTES.map(({ path, page, access }) => ({
        path,
        // Keyed by the route: each route has its own error boundary and loading state.
        element: access ? (
          <RequireRole key={path} access={access}>
            <RemotePage page={page} />
          </RequireRole>
        ) : (
          <RemotePage key={path} page={page} />
        ),
      })),
      { path: '*', element: <NotFound /> },
    ],
  },
];

/** The page at the router's location: the browser's `BrowserRouter` or the server's `StaticRouter`. */
export function SiteRoutes() {
  return useRoutes(routeTree);
}
