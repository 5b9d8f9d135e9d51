import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Toaster } from '@ticketing/shared';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';

export function Layout() {
  return (
    <div className="app">
      <a className="skip-link" href="#conteudo">
        Pular para o conteúdo
      </a>
      <Header />
      <main id="conteudo" className="app__main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
