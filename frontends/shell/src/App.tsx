import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from '@ticketing/shared/router';
import { SiteRoutes } from './route-tree.tsx';

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SiteRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
