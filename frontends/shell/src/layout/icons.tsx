import { iconStroke as stroke } from '@ticketing/shared';

export const SearchIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </svg>
);

export const MenuIcon = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </svg>
);
