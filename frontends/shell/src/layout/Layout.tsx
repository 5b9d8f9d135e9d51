import { Outlet } from '@ticketing/shared/router';
import { Toaster } from '@ticketing/shared';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { ScrollToTop } from './ScrollToTop.tsx';

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
      <ScrollToTop />
    </div>
  );
}
