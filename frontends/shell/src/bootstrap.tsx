import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@ticketing/shared';
import '@ticketing/shared/styles.css';
import { App } from './App.tsx';
import { registerRemotesOnce } from './remote/runtime-config.ts';
import './layout/layout.css';

// The remotes' manifest list loads while the layout renders; pages wait for it.
void registerRemotesOnce().catch(() => {});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
