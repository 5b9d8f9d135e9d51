import { NavLink } from '@ticketing/shared/router';

const SECTIONS = [
  { to: '/admin/eventos', label: 'Eventos' },
  { to: '/admin/vendas', label: 'Vendas' },
  { to: '/admin/pedidos', label: 'Pedidos e pessoas' },
  { to: '/admin/cupons', label: 'Cupons' },
  { to: '/admin/financeiro', label: 'Financeiro' },
] as const;

/** The back office's sections, above each of its pages; the current one is marked for screen readers too. */
export function BackOfficeNav() {
  return (
    <nav className="back-office-nav" aria-label="Gestão">
      {SECTIONS.map(({ to, label }) => (
        <NavLink key={to} to={to} className="back-office-nav__link">
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
