/**
 * The router every app uses, shared as one module (a federation singleton provided by the shell): one router
 * context on the page. A shared module cannot be tree-shaken, so it re-exports only the declarative router the
 * apps use and React Router's data router stays out of the site.
 */
export {
  BrowserRouter,
  Link,
  NavLink,
  Navigate,
  NavigationType,
  Outlet,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useRoutes,
  useSearchParams,
} from 'react-router';
export type { RouteObject } from 'react-router';
